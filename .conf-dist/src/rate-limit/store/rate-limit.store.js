export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');
//# sourceMappingURL=rate-limit.store.js.map