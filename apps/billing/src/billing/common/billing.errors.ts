import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * A refusal the caller can act on. Over REST it is a JSON error with `code`; over MCP the layer
 * turns it into an `isError` result whose envelope carries `code`, `message`, `message_es`, `field`.
 */
export class BillingError extends HttpException {
  constructor(
    status: HttpStatus,
    code: string,
    message: string,
    options: { message_es?: string; field?: string; nextQuestion?: string } = {},
  ) {
    super({ statusCode: status, code, message, ...options }, status);
  }

  static notFound(what: string, id: string, hint: string): BillingError {
    return new BillingError(HttpStatus.NOT_FOUND, 'not_found', `${what} ${id} was not found in this workspace; ${hint}`);
  }

  /** The user must supply something first; `nextQuestion` is what the agent should ask. */
  static needsMoreInfo(
    code: string,
    message: string,
    nextQuestion: string,
    options: { message_es?: string; field?: string } = {},
  ): BillingError {
    return new BillingError(HttpStatus.UNPROCESSABLE_ENTITY, code, message, { ...options, nextQuestion });
  }

  static businessRule(code: string, message: string, message_es?: string, field?: string): BillingError {
    return new BillingError(HttpStatus.UNPROCESSABLE_ENTITY, code, message, { message_es, field });
  }
}
