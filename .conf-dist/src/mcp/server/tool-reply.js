/**
 * What a tool returns when the answer is not plain success: the layer puts it in the JSON
 * envelope (SPEC §3). Plain data returned by a handler is `success`.
 */
export class ToolReply {
    status;
    ok;
    data;
    errors;
    nextQuestion;
    approval;
    constructor(status, ok, data, errors, nextQuestion, approval) {
        this.status = status;
        this.ok = ok;
        this.data = data;
        this.errors = errors;
        this.nextQuestion = nextQuestion;
        this.approval = approval;
    }
    /** The user must supply something first: `ok: false`, `isError: true`, and the question to ask. */
    static needsMoreInfo(nextQuestion, errors, data) {
        return new ToolReply('needs_more_info', false, data, errors, nextQuestion);
    }
    /** Accepted, finishing later: `ok: true` with what identifies the pending work. */
    static queued(data) {
        return new ToolReply('queued', true, data, []);
    }
    /** The tool did not do what was asked, and says why (a refusal, a declined confirmation). */
    static failed(errors, approval) {
        return new ToolReply('failed', false, undefined, errors, undefined, approval);
    }
    /**
     * Nothing ran: a person must confirm first (see the confirmation flow). Not an error
     * (`isError` stays off): the request stands and its approval is on record.
     */
    static pendingConfirmation(approval, nextQuestion) {
        return new ToolReply('pending_confirmation', false, undefined, [], nextQuestion, approval);
    }
}
//# sourceMappingURL=tool-reply.js.map