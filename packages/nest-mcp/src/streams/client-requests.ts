import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { JSONRPCRequest, RequestId } from '@modelcontextprotocol/server';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import type { ResponseChannel } from './response-channel.js';
import { McpStreamBackends } from './stream-backends.provider.js';

/** What a client sent back for one server→client request. */
export type ClientAnswer = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };

const PREFIX = 'mcp-srv';

/** The call a server→client request belongs to, sealed into the request's id: what an answer nobody waits for is audited as. */
export interface ClientRequestOrigin {
  method: string;
  /** Tool or prompt name, resource URI. */
  target?: string;
}

/** What became of a client's answer. */
export type AnswerDelivery = { taken: true } | { taken: false; origin: ClientRequestOrigin };

/** Origins are sealed into ids the client echoes: bounded. */
const MAX_TARGET_CHARS = 200;

/**
 * Server→client requests of the handshake era (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`). The request goes out on the call's SSE stream; the client answers with a new POST,
 * perhaps on another replica, which publishes the answer on the message bus, where the waiting
 * handler listens. The request id binds the session and an expiry under an HMAC (the
 * `requestState` secret, shared by the replicas), so an answer for an id this server did not issue,
 * issued to another session, or too late, is refused where it arrives.
 */
@Injectable()
export class ClientRequests {
  private readonly key: Buffer;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly backends: McpStreamBackends,
  ) {
    const secret = options.requestState.secret;
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret);
  }

  /**
   * Sends `method` to the client on `channel` and resolves with its result. Fails with a clear
   * error when the client cannot be asked, answers with an error, does not answer in time, or the
   * call is aborted (the client disconnected).
   */
  async ask(
    channel: ResponseChannel,
    sessionId: string,
    origin: ClientRequestOrigin,
    method: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const timeoutMs = this.options.streams!.clientRequestTimeoutMs;
    const id = this.issueId(sessionId, Date.now() + timeoutMs, origin);
    let settled = false;
    let resolveAnswer!: (answer: ClientAnswer | Error) => void;
    const answered = new Promise<ClientAnswer | Error>((resolve) => (resolveAnswer = resolve));
    const settle = (answer: ClientAnswer | Error) => {
      if (settled) return false;
      settled = true;
      resolveAnswer(answer);
      return true;
    };
    // Listen before asking: an answer may come back before `request` returns. Taking it is
    // acknowledged, so the replica that received it knows somebody was waiting.
    const unsubscribe = await this.backends.bus.subscribe(answerChannel(id), (payload) => {
      if (settle(payload as ClientAnswer)) void this.backends.bus.publish(takenChannel(id), {}).catch(() => undefined);
    });
    const timer = setTimeout(
      () =>
        settle(
          new McpProtocolError(
            McpErrorCode.InternalError,
            `The client did not answer ${method} within ${timeoutMs} ms. Nothing was done.`,
            HttpStatus.OK,
          ),
        ),
      timeoutMs,
    );
    const onAbort = () => settle(channel.signal.reason instanceof Error ? channel.signal.reason : new Error('Call aborted'));
    channel.signal.addEventListener('abort', onAbort, { once: true });
    // Aborted while the subscription was being made: the event has already fired.
    if (channel.signal.aborted) onAbort();
    try {
      const request: JSONRPCRequest = { jsonrpc: '2.0', id, method, params };
      if (!(await channel.request(request))) {
        throw McpProtocolError.invalidRequest(
          `This call needs to ask the client (${method}), which needs an SSE answer: send Accept: application/json, text/event-stream. Nothing was done.`,
          HttpStatus.OK,
        );
      }
      const answer = await answered;
      if (answer instanceof Error) throw answer;
      if ('error' in answer) {
        throw new McpProtocolError(
          McpErrorCode.InternalError,
          `The client refused ${method} (${answer.error.code}: ${String(answer.error.message).slice(0, 200)}). Nothing was done.`,
          HttpStatus.OK,
        );
      }
      return answer.result;
    } finally {
      clearTimeout(timer);
      channel.signal.removeEventListener('abort', onAbort);
      await unsubscribe();
    }
  }

  /**
   * A client's answer (a JSON-RPC response POSTed in `sessionId`): handed to the waiting handler,
   * wherever it runs. Refused (`400`) when the id was not issued to this session or has expired.
   * Not taken within `answerTakenMs` (the replica running the call died, or the call already
   * ended): the caller is told, with the call the answer was for.
   */
  async deliver(body: Record<string, unknown>, sessionId: string): Promise<AnswerDelivery> {
    const id = body.id;
    const origin = typeof id === 'string' ? this.verifyId(id, sessionId) : undefined;
    if (typeof id !== 'string' || !origin) {
      throw McpProtocolError.invalidRequest(
        `Invalid response: id ${JSON.stringify(id ?? null)} does not name a pending request of this session (unknown, expired or another session's)`,
      );
    }
    const answer: ClientAnswer = isRecord(body.error)
      ? { error: { code: Number(body.error.code), message: String(body.error.message ?? ''), data: body.error.data } }
      : { result: isRecord(body.result) ? body.result : {} };
    let onTaken!: () => void;
    const taken = new Promise<void>((resolve) => (onTaken = resolve));
    const unsubscribe = await this.backends.bus.subscribe(takenChannel(id), () => onTaken());
    let timer: NodeJS.Timeout | undefined;
    try {
      await this.backends.bus.publish(answerChannel(id), answer);
      const wasTaken = await Promise.race([
        taken.then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.options.streams!.answerTakenMs))),
      ]);
      return wasTaken ? { taken: true } : { taken: false, origin };
    } finally {
      clearTimeout(timer);
      await unsubscribe();
    }
  }

  private issueId(sessionId: string, expiresAt: number, origin: ClientRequestOrigin): string {
    const nonce = randomUUID();
    const sealed = Buffer.from(
      JSON.stringify({ m: origin.method, ...(origin.target ? { t: origin.target.slice(0, MAX_TARGET_CHARS) } : {}) }),
    ).toString('base64url');
    return `${PREFIX}.${nonce}.${expiresAt}.${sealed}.${this.tag(sessionId, nonce, expiresAt, sealed)}`;
  }

  /** The origin of a request id this server issued to this session, not expired; undefined otherwise. */
  private verifyId(id: string, sessionId: string): ClientRequestOrigin | undefined {
    const [prefix, nonce, expiry, sealed, tag, ...rest] = id.split('.');
    if (prefix !== PREFIX || rest.length || !nonce || !sealed || !tag || !/^\d+$/.test(expiry ?? '')) return undefined;
    const expected = Buffer.from(this.tag(sessionId, nonce, Number(expiry), sealed));
    const given = Buffer.from(tag);
    if (expected.length !== given.length || !timingSafeEqual(expected, given) || Number(expiry) <= Date.now()) return undefined;
    const { m, t } = JSON.parse(Buffer.from(sealed, 'base64url').toString()) as { m: string; t?: string };
    return { method: m, ...(t ? { target: t } : {}) };
  }

  private tag(sessionId: string, nonce: string, expiresAt: number, sealed: string): string {
    return createHmac('sha256', this.key).update(`mcp.clientRequest:${sessionId}\0${nonce}\0${expiresAt}\0${sealed}`).digest('base64url');
  }
}

/** Whether a POST body is a JSON-RPC response (a client's answer) rather than a request or notification. */
export function isJsonRpcResponse(body: unknown): body is Record<string, unknown> & { id: RequestId } {
  return isRecord(body) && body.jsonrpc === '2.0' && !('method' in body) && ('result' in body || 'error' in body) && 'id' in body;
}

function answerChannel(id: string): string {
  return `mcp:client-answer:${id}`;
}

function takenChannel(id: string): string {
  return `mcp:client-answer-taken:${id}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
