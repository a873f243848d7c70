export {};
//# sourceMappingURL=prisma.types.js.map