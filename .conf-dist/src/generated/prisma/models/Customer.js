export {};
//# sourceMappingURL=Customer.js.map