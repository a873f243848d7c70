export {};
//# sourceMappingURL=RequestStateUse.js.map