export {};
//# sourceMappingURL=AuditEvent.js.map