/** The `outputSchema` of a tool whose `data` is described by an output DTO. */
export function envelopeSchema(dataSchema) {
    return {
        type: 'object',
        properties: {
            ok: { type: 'boolean', description: 'True when the tool did what was asked.' },
            status: { type: 'string', enum: ['success', 'failed', 'needs_more_info', 'pending_confirmation', 'queued'] },
            data: { ...dataSchema, description: dataSchema.description ?? 'The result; absent when ok is false.' },
            errors: {
                type: 'array',
                items: {
                    type: 'object',
                    properties: {
                        code: { type: 'string' },
                        message: { type: 'string' },
                        message_es: { type: 'string' },
                        field: { type: 'string' },
                        retryable: { type: 'boolean' },
                    },
                    required: ['code', 'message', 'retryable'],
                },
            },
            nextQuestion: { type: 'string', description: 'What to ask or tell the user when status is needs_more_info or pending_confirmation.' },
            approval: {
                type: 'object',
                description: 'When status is pending_confirmation: the approval a person must give first, and the page where they give it.',
                properties: { id: { type: 'string' }, url: { type: 'string' }, expires_at: { type: 'string' } },
                required: ['id'],
            },
            toolName: { type: 'string' },
            safety: { type: 'string', enum: ['read_only', 'mutation', 'external_send', 'destructive'] },
            durationMs: { type: 'number' },
        },
        required: ['ok', 'status', 'errors', 'toolName', 'safety', 'durationMs'],
    };
}
//# sourceMappingURL=tool-result.envelope.js.map