import { HttpException, HttpStatus } from '@nestjs/common';
/** `<public URL>/.well-known/oauth-protected-resource` (RFC 9728); the public URL is fixed at boot. */
export function resourceMetadataUrl(publicUrl) {
    return `${publicUrl}/.well-known/oauth-protected-resource`;
}
/**
 * 401 with the challenge that sends an MCP client to its OAuth flow (SPEC §1). The JSON-RPC
 * filter and the REST filter both copy `headers` onto the response. `tokenSent`: a token came and
 * was refused, so the challenge says `error="invalid_token"` and why (RFC 6750 §3); without a
 * token there is no error attribute.
 */
export class AuthenticationRequiredException extends HttpException {
    constructor(message, metadataUrl, tokenSent = false) {
        const error = tokenSent ? `error="invalid_token", error_description="${quotable(message)}", ` : '';
        super({ statusCode: HttpStatus.UNAUTHORIZED, error: 'Unauthorized', message, headers: { 'WWW-Authenticate': `Bearer ${error}resource_metadata="${metadataUrl}"` } }, HttpStatus.UNAUTHORIZED);
    }
}
/** Only the characters RFC 6750 allows in `error_description` (printable ASCII but `"` and `\`). */
function quotable(text) {
    return text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '');
}
/** 403 naming the scopes a call needs (step-up authorization, MCP authorization spec). */
export class InsufficientScopeException extends HttpException {
    constructor(message, scopes, metadataUrl) {
        super({
            statusCode: HttpStatus.FORBIDDEN,
            error: 'insufficient_scope',
            message,
            scope: scopes.join(' '),
            headers: {
                'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scopes.join(' ')}", resource_metadata="${metadataUrl}"`,
            },
        }, HttpStatus.FORBIDDEN);
    }
}
//# sourceMappingURL=auth-challenge.js.map