export {};
//# sourceMappingURL=Invoice.js.map