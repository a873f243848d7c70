export {};
//# sourceMappingURL=Membership.js.map