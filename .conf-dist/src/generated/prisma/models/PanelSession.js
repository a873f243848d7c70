export {};
//# sourceMappingURL=PanelSession.js.map