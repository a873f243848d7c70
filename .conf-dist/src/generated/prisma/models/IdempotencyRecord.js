export {};
//# sourceMappingURL=IdempotencyRecord.js.map