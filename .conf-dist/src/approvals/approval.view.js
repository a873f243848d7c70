export {};
//# sourceMappingURL=approval.view.js.map