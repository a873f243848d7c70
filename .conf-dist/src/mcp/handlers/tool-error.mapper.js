import { HttpException, HttpStatus } from '@nestjs/common';
const CODE_BY_STATUS = {
    [HttpStatus.BAD_REQUEST]: 'invalid_argument',
    [HttpStatus.UNAUTHORIZED]: 'unauthenticated',
    [HttpStatus.FORBIDDEN]: 'forbidden',
    [HttpStatus.NOT_FOUND]: 'not_found',
    [HttpStatus.CONFLICT]: 'conflict',
    [HttpStatus.GONE]: 'gone',
    [HttpStatus.PAYLOAD_TOO_LARGE]: 'too_large',
    [HttpStatus.UNPROCESSABLE_ENTITY]: 'business_rule',
    [HttpStatus.TOO_MANY_REQUESTS]: 'rate_limited',
};
/**
 * A 4xx `HttpException` thrown by a handler is something the caller can act on: it becomes a
 * tool result with `isError: true`. Anything else is not, and stays an exception.
 */
export function toolErrorsFromException(exception) {
    if (!(exception instanceof HttpException))
        return undefined;
    const status = exception.getStatus();
    if (status < 400 || status >= 500)
        return undefined;
    const body = exception.getResponse();
    const record = typeof body === 'object' && body !== null ? body : {};
    if (Array.isArray(record.errors))
        return record.errors;
    const messages = Array.isArray(record.message) ? record.message : [String(record.message ?? exception.message)];
    const code = typeof record.code === 'string' ? record.code : (CODE_BY_STATUS[status] ?? 'request_failed');
    return messages.map((message) => ({
        code,
        message,
        ...(typeof record.message_es === 'string' ? { message_es: record.message_es } : {}),
        ...(typeof record.field === 'string' ? { field: record.field } : {}),
        retryable: status === HttpStatus.TOO_MANY_REQUESTS || status === HttpStatus.CONFLICT,
    }));
}
/** The question to put to the user, when a 4xx exception says more information is needed. */
export function nextQuestionOf(exception) {
    if (!(exception instanceof HttpException))
        return undefined;
    const body = exception.getResponse();
    const question = typeof body === 'object' && body !== null ? body.nextQuestion : undefined;
    return typeof question === 'string' ? question : undefined;
}
//# sourceMappingURL=tool-error.mapper.js.map