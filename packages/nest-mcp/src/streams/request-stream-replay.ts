import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { Injectable } from '@nestjs/common';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import type { SseWriter } from './sse-writer.js';
import { requestIdOfStream } from './stream-ids.js';

/**
 * A `GET` with the `Last-Event-ID` of a request's answer stream (a `POST` whose connection broke):
 * what the stream carried after that event, then its end. The answer's last event is the
 * response; when the store has none, the call never finished where it ran: its connection broke
 * (the replica running it aborts it, and its writes roll back) or its replica died. The client is
 * then told so, with an error response for its request, instead of waiting for an answer that
 * will never come.
 */
@Injectable()
export class RequestStreamReplay {
  replay(sse: SseWriter, stream: { streamId: string; events: { id: string; message: JSONRPCMessage }[] }): void {
    for (const event of stream.events) sse.send(event.message, event.id);
    if (stream.events.some((event) => isResponse(event.message))) return;
    const id = requestIdOfStream(stream.streamId);
    if (id === undefined) return;
    sse.send({
      jsonrpc: '2.0',
      id,
      error: {
        code: McpErrorCode.InternalError,
        message:
          'This call did not finish: the connection carrying its answer broke, or the server running it stopped, before it ' +
          'answered. A call cut off this way is rolled back. Call it again (with the same idempotency key, if it had one).',
      },
    });
  }
}

function isResponse(message: JSONRPCMessage): boolean {
  return !('method' in message) && 'id' in message && ('result' in message || 'error' in message);
}
