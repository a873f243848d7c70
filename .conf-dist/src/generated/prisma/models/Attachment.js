export {};
//# sourceMappingURL=Attachment.js.map