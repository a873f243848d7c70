import type { ToolError } from './tool-result.envelope.js';

/**
 * The tool error that replaces a result JSON cannot carry (a circular reference, a `Map` key that
 * cannot be a name). The handler's fault, not the call's: the agent is told not to retry; where
 * the value sits is for the developer's log only (see `notSerializableLog`).
 */
export function resultNotSerializable(tool: string): ToolError {
  return {
    code: 'result_not_serializable',
    message:
      `The result of ${tool} could not be sent: the server built a value that JSON cannot represent. ` +
      'This is a fault of the server, not of this call; retrying will not help. Tell the user the tool is broken.',
    retryable: false,
  };
}

/** The developer's side of `resultNotSerializable`: which tool, where, and what to change. */
export function notSerializableLog(tool: string, problem: string): string {
  return (
    `Tool ${tool} returned a result that cannot be sent as JSON: ${problem}. The caller got result_not_serializable. ` +
    'Return plain data (drop the back-reference, map the value to an object or array).'
  );
}

/**
 * The tool error that replaces a result over `maxResultBytes`: nothing of it is sent. The call
 * can succeed with other arguments, so the message says which.
 */
export function resultTooLarge(tool: string, bytes: number, maxBytes: number): ToolError {
  return {
    code: 'result_too_large',
    message:
      `The result of ${tool} is ${bytes} bytes of JSON, more than the ${maxBytes} this server sends: nothing of it was sent. ` +
      `Call ${tool} again asking for less: fewer rows (a smaller limit or page), a narrower query (a filter, a shorter period), ` +
      'or the next page when the tool offers pagination.',
    retryable: false,
  };
}

/** The developer's side of `resultTooLarge`. */
export function tooLargeLog(tool: string, bytes: number, maxBytes: number): string {
  return (
    `Tool ${tool} returned ${bytes} bytes of JSON, over maxResultBytes (${maxBytes}): the caller got result_too_large. ` +
    'Page the result, or store it and return a resource link (ToolReply.success(data, { resourceLinks })).'
  );
}
