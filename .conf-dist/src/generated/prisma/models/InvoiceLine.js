export {};
//# sourceMappingURL=InvoiceLine.js.map