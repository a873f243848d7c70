export {};
//# sourceMappingURL=Refund.js.map