export {};
//# sourceMappingURL=AccessToken.js.map