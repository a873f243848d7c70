import { HttpException, type HttpExceptionOptions } from '@nestjs/common';

/**
 * An HTTP error whose answer needs response headers: the `WWW-Authenticate` challenge of a 401 or
 * 403, the `Retry-After` of a 503. One REST filter (`HttpExceptionWithHeadersFilter`) puts them on
 * the response for every such error. The headers also ride in the response object under
 * `headers`: the MCP endpoint's own filter, which knows no application class, reads them there.
 */
export class HttpExceptionWithHeaders extends HttpException {
  constructor(
    body: Record<string, unknown>,
    status: number,
    readonly headers: Record<string, string>,
    options?: HttpExceptionOptions,
  ) {
    super({ ...body, headers }, status, options);
  }

  /** The JSON body of the REST answer: the response object without its headers. */
  body(): Record<string, unknown> {
    const { headers: _headers, ...body } = this.getResponse() as Record<string, unknown>;
    return body;
  }
}
