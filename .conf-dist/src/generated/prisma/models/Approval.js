export {};
//# sourceMappingURL=Approval.js.map