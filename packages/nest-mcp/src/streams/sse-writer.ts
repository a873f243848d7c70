import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Response } from 'express';
import { setMcpResponseHeaders } from '../protocol/json-rpc-response.js';

/**
 * Writes one `text/event-stream` answer (Streamable HTTP transport, "Sending Messages to the
 * Server" / "Listening for Messages from the Server"): a `message` event per JSON-RPC message,
 * with its `id` when the stream is resumable. Writes after the client left are dropped.
 */
export class SseWriter {
  private opened = false;

  constructor(private readonly res: Response) {}

  get isOpen(): boolean {
    return this.opened && !this.res.writableEnded && !this.res.destroyed;
  }

  open(protocolVersion: string, headers: Record<string, string> = {}): void {
    if (this.opened) return;
    this.opened = true;
    setMcpResponseHeaders(this.res, protocolVersion);
    for (const [name, value] of Object.entries(headers)) this.res.setHeader(name, value);
    this.res.status(200);
    this.res.setHeader('Content-Type', 'text/event-stream');
    this.res.setHeader('Connection', 'keep-alive');
    // Proxies (nginx) must not buffer the stream.
    this.res.setHeader('X-Accel-Buffering', 'no');
    this.res.flushHeaders();
  }

  send(message: JSONRPCMessage, eventId?: string): void {
    if (!this.isOpen) return;
    this.res.write(`event: message\n${eventId ? `id: ${eventId}\n` : ''}data: ${JSON.stringify(message)}\n\n`);
  }

  end(): void {
    if (this.isOpen) this.res.end();
  }
}
