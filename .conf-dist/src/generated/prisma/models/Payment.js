export {};
//# sourceMappingURL=Payment.js.map