export {};
//# sourceMappingURL=Workspace.js.map