import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { JSONRPCRequest, RequestId } from '@modelcontextprotocol/server';
import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { argumentsHash } from '../calls/arguments-hash.js';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { ClientRequestRecords, type ClientRequestOrigin, type ClientRequestRecord } from './client-request-records.js';
import type { ResponseChannel } from './response-channel.js';
import { McpStreamBackends } from './stream-backends.provider.js';

export type { ClientRequestOrigin } from './client-request-records.js';

/** What a client sent back for one server→client request. */
export type ClientAnswer = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };

const PREFIX = 'mcp-srv';

/** What became of a client's answer. */
export type AnswerDelivery =
  /** The waiting call took it; `duplicate`: it had taken this same answer before (a client retrying after a lost `202`). */
  | { taken: true; duplicate?: true }
  /**
   * Nobody waits for it: the replica that asked died. `origin` is the call, with its arguments when
   * recorded; `firstReport`: this delivery is the first to find the call lost, the one that audits it.
   */
  | { taken: false; origin: ClientRequestOrigin; firstReport: boolean };

/** Origins are sealed into ids the client echoes: bounded. */
const MAX_TARGET_CHARS = 200;

/**
 * Server→client requests of the handshake era (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`). The request goes out on the call's SSE stream; the client answers with a new POST,
 * perhaps on another replica, which publishes the answer on the message bus, where the waiting
 * handler listens. The request id binds the session and an expiry under an HMAC (the
 * `requestState` secret, shared by the replicas), so an answer for an id this server did not issue,
 * issued to another session, or too late, is refused where it arrives. What became of each request
 * (asked by which call, answered, abandoned, lost) is recorded in the shared event store
 * (`ClientRequestRecords`), so that an answer sent twice is known for a duplicate on every replica.
 */
@Injectable()
export class ClientRequests {
  private readonly logger = new Logger('McpClientRequests');
  private readonly key: Buffer;
  private readonly records: ClientRequestRecords;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly backends: McpStreamBackends,
  ) {
    const secret = options.requestState.secret;
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret);
    this.records = new ClientRequestRecords(backends.events);
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
    const { id, nonce } = this.issueId(sessionId, Date.now() + timeoutMs, origin);
    /** The digest of the answer taken, once one is. */
    let takenDigest: string | undefined;
    let sent = false;
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
    // recorded, then acknowledged, so the replica that received it knows somebody was waiting, and
    // one that hears no acknowledgement (a copy of the answer, sent again) finds the record.
    const onAnswer = (payload: unknown) => {
      const digest = answerDigest(payload as ClientAnswer);
      if (settle(payload as ClientAnswer)) {
        takenDigest = digest;
        void this.records
          .answered(sessionId, nonce, digest)
          .catch((error: Error) => this.unrecorded(method, error))
          .finally(() => this.acknowledge(id, digest));
      } else if (digest === takenDigest) void this.acknowledge(id, digest);
    };
    const [unsubscribe] = await Promise.all([
      this.backends.bus.subscribe(answerChannel(id), onAnswer),
      this.records.asked(sessionId, nonce, origin).catch((error: Error) => this.unrecorded(method, error)),
    ]);
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
      sent = await channel.request(request);
      if (!sent) {
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
      // Stopped waiting without an answer (aborted, timed out): the call ended where it ran, and was
      // audited there; a late answer is refused, not reported as a lost call.
      if (sent && takenDigest === undefined) {
        await this.records.ended(sessionId, nonce).catch((error: Error) => this.unrecorded(method, error));
      }
    }
  }

  /**
   * A client's answer (a JSON-RPC response POSTed in `sessionId`): handed to the waiting handler,
   * wherever it runs. Refused (`400`) when the id was not issued to this session or has expired,
   * when the request was answered before with another answer, or when its call already ended
   * without one. The same answer again (a client retrying) is a duplicate: nothing more is done.
   * Not taken within `answerTakenMs` (the replica running the call died): the caller is told, with
   * the call the answer was for.
   */
  async deliver(body: Record<string, unknown>, sessionId: string): Promise<AnswerDelivery> {
    const id = body.id;
    const sealed = typeof id === 'string' ? this.verifyId(id, sessionId) : undefined;
    if (typeof id !== 'string' || !sealed) {
      throw McpProtocolError.invalidRequest(
        `Invalid response: id ${JSON.stringify(id ?? null)} does not name a pending request of this session (unknown, expired or another session's)`,
      );
    }
    const answer: ClientAnswer = isRecord(body.error)
      ? { error: { code: Number(body.error.code), message: String(body.error.message ?? ''), data: body.error.data } }
      : { result: isRecord(body.result) ? body.result : {} };
    const digest = answerDigest(answer);
    const before = settledEarlier(await this.read(sessionId, sealed.nonce), digest, sealed.origin);
    if (before) return before;
    if (await this.handOver(id, answer, digest)) return { taken: true };
    // Nobody took it: another copy may have been taken meanwhile, or the call stopped waiting.
    const record = await this.read(sessionId, sealed.nonce);
    const meanwhile = settledEarlier(record, digest, sealed.origin);
    if (meanwhile) return meanwhile;
    const firstReport = await this.records.reportLost(sessionId, sealed.nonce).catch((error: Error) => {
      this.logger.warn(
        `Could not record a lost call to ${sealed.origin.target ?? sealed.origin.method} (${error.message}): audited anyway`,
      );
      return true;
    });
    return { taken: false, origin: record.origin ?? sealed.origin, firstReport };
  }

  /** Publishes the answer for the handler waiting for it; true when it acknowledged taking it within `answerTakenMs`. */
  private async handOver(id: string, answer: ClientAnswer, digest: string): Promise<boolean> {
    let onTaken!: () => void;
    const taken = new Promise<void>((resolve) => (onTaken = resolve));
    const unsubscribe = await this.backends.bus.subscribe(takenChannel(id), (payload) => {
      // An acknowledgement names the answer taken, so another answer to the same request is not
      // mistaken for it (one without a digest comes from a replica of an earlier version).
      const acknowledged = isRecord(payload) ? payload.digest : undefined;
      if (acknowledged === undefined || acknowledged === digest) onTaken();
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await this.backends.bus.publish(answerChannel(id), answer);
      return await Promise.race([
        taken.then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.options.streams!.answerTakenMs))),
      ]);
    } finally {
      clearTimeout(timer);
      await unsubscribe();
    }
  }

  private acknowledge(id: string, digest: string): Promise<void> {
    return this.backends.bus.publish(takenChannel(id), { digest }).catch(() => undefined);
  }

  /** The request's record; empty when the store cannot be read (the answer is then handled as before records existed). */
  private read(sessionId: string, nonce: string): Promise<ClientRequestRecord> {
    return this.records.read(sessionId, nonce).catch((error: Error) => {
      this.logger.warn(`Could not read what became of a request to the client: ${error.message}`);
      return {};
    });
  }

  private unrecorded(method: string, error: Error): void {
    this.logger.warn(
      `Could not record ${method} in the event store (${error.message}): an answer sent twice may be taken for a lost call's`,
    );
  }

  /** A request id sealing the call's method and target (not its arguments: the id travels with every answer). */
  private issueId(sessionId: string, expiresAt: number, origin: ClientRequestOrigin): { id: string; nonce: string } {
    const nonce = randomUUID();
    const sealed = Buffer.from(
      JSON.stringify({ m: origin.method, ...(origin.target ? { t: origin.target.slice(0, MAX_TARGET_CHARS) } : {}) }),
    ).toString('base64url');
    return { id: `${PREFIX}.${nonce}.${expiresAt}.${sealed}.${this.tag(sessionId, nonce, expiresAt, sealed)}`, nonce };
  }

  /** The origin and nonce of a request id this server issued to this session, not expired; undefined otherwise. */
  private verifyId(id: string, sessionId: string): { origin: ClientRequestOrigin; nonce: string } | undefined {
    const [prefix, nonce, expiry, sealed, tag, ...rest] = id.split('.');
    if (prefix !== PREFIX || rest.length || !nonce || !sealed || !tag || !/^\d+$/.test(expiry ?? '')) return undefined;
    const expected = Buffer.from(this.tag(sessionId, nonce, Number(expiry), sealed));
    const given = Buffer.from(tag);
    if (expected.length !== given.length || !timingSafeEqual(expected, given) || Number(expiry) <= Date.now()) return undefined;
    const { m, t } = JSON.parse(Buffer.from(sealed, 'base64url').toString()) as { m: string; t?: string };
    return { origin: { method: m, ...(t ? { target: t } : {}) }, nonce };
  }

  private tag(sessionId: string, nonce: string, expiresAt: number, sealed: string): string {
    return createHmac('sha256', this.key).update(`mcp.clientRequest:${sessionId}\0${nonce}\0${expiresAt}\0${sealed}`).digest('base64url');
  }
}

/** Whether a POST body is a JSON-RPC response (a client's answer) rather than a request or notification. */
export function isJsonRpcResponse(body: unknown): body is Record<string, unknown> & { id: RequestId } {
  return isRecord(body) && body.jsonrpc === '2.0' && !('method' in body) && ('result' in body || 'error' in body) && 'id' in body;
}

/**
 * What an earlier answer settled, when one did: the same answer again is a duplicate (acknowledged,
 * nothing more done); another answer to a request already answered, or one to a call that stopped
 * waiting, is refused (its call was audited where it ran).
 */
function settledEarlier(record: ClientRequestRecord, digest: string, origin: ClientRequestOrigin): AnswerDelivery | undefined {
  const target = origin.target ?? origin.method;
  if (record.answered === digest) return { taken: true, duplicate: true };
  if (record.answered !== undefined) {
    throw McpProtocolError.invalidRequest(
      `This request was already answered, and the call to ${target} went on with that first answer; this different answer was not used.`,
    );
  }
  if (record.ended) {
    throw McpProtocolError.invalidRequest(
      `No call is waiting for this answer any more: the call to ${target} already ended without it (cancelled, timed out, or its ` +
        `client disconnected). The answer was not used; call ${target} again.`,
    );
  }
  return undefined;
}

/** An answer's identity whatever the order of its keys: a client sending it again sends the same digest. */
function answerDigest(answer: ClientAnswer): string {
  return argumentsHash(answer);
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
