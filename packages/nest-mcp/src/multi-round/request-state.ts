import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { MCP_REQUEST_STATE_STORE, type McpRequestStateStore } from '../contracts/request-state-store.js';

/** What travels inside a sealed `requestState` besides the handler's own payload. */
interface Sealed {
  /** The handler's payload. */
  p: unknown;
  /** One-time id, recorded when the state is accepted. */
  j: string;
  /** Expiry, epoch milliseconds (the codec checks its own copy; the store keeps this one). */
  x: number;
  /** Keyed tag of caller + method + target + arguments hash: state minted for one call fits no other. */
  b: string;
  /** Set when the handler records the use itself, once it has read the answer (`recordUse`). */
  h?: 1;
}

/** A state opened but not yet recorded as used: its handler decides how (see `recordUse`). */
interface PendingUse {
  id: string;
  expiresAt: Date;
}

/** The part of an invocation a state is bound to. */
type Binding = Pick<McpInvocation, 'method' | 'name' | 'argumentsHash' | 'callerKey'>;

/**
 * Seals and opens the opaque `requestState` of multi round-trip requests (2026-07-28, SEP-2322).
 * The state is HMAC-signed by the official SDK's codec (not encrypted: never put secrets in it),
 * expires, is bound to the caller, the method, the tool/prompt/resource and the hash of the
 * arguments, and is accepted once (the `MCP_REQUEST_STATE_STORE` decides, across replicas when it
 * is shared). Any failure is a JSON-RPC `-32602` with a sentence saying what to do.
 */
@Injectable()
export class McpRequestState {
  private readonly codec: RequestStateCodec<Sealed>;
  private readonly key: Buffer;
  private readonly ttlMs: number;
  private readonly pendingUses = new WeakMap<object, PendingUse>();

  constructor(
    @Inject(MCP_OPTIONS) options: ResolvedMcpOptions,
    @Inject(MCP_REQUEST_STATE_STORE) private readonly store: McpRequestStateStore,
  ) {
    const secret = options.requestState.secret;
    if (secret === undefined) {
      new Logger('McpRequestState').warn(
        'No requestState secret configured: using a random per-process key. Replicas must share one (McpModule option requestState.secret).',
      );
    }
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret);
    this.ttlMs = options.requestState.ttlSeconds * 1000;
    this.codec = createRequestStateCodec<Sealed>({ key: this.key, ttlSeconds: options.requestState.ttlSeconds });
  }

  /**
   * Seals `payload` for a retry of exactly this call. With `recordUse: 'by-handler'` opening the
   * state does not record its use: the handler must call `recordUse(invocation, …)` before it acts
   * on the answer (the confirmation does, so that a "no" stays spent although its call rolls back).
   */
  async seal(payload: unknown, invocation: Binding, options: { recordUse?: 'on-open' | 'by-handler' } = {}): Promise<string> {
    const sealed: Sealed = { p: payload, j: randomUUID(), x: Date.now() + this.ttlMs, b: this.tag(invocation) };
    if (options.recordUse === 'by-handler') sealed.h = 1;
    return this.codec.mint(sealed);
  }

  /**
   * Records the use of the state `invocation` carried, when it was sealed `recordUse: 'by-handler'`
   * (otherwise `open` already did, and this does nothing). `final`: the use sticks even if the call
   * then fails and rolls back. Refused (-32602) when the state was used meanwhile.
   */
  async recordUse(invocation: object, options: { final: boolean }): Promise<void> {
    const pending = this.pendingUses.get(invocation);
    if (!pending) return;
    this.pendingUses.delete(invocation);
    if (!(await this.store.consume(pending.id, pending.expiresAt, { final: options.final }))) {
      throw invalidState('it was already used once');
    }
  }

  /**
   * Verifies an echoed state for this call and marks it used (or, for a state sealed
   * `recordUse: 'by-handler'`, leaves that to the handler); returns the handler's payload.
   */
  async open(state: unknown, invocation: Binding): Promise<unknown> {
    if (typeof state !== 'string' || state.length === 0 || state.length > 16_384) {
      throw invalidState('it must be the exact string the server returned');
    }
    let sealed: Sealed;
    try {
      sealed = await this.codec.verify(state, undefined as never);
    } catch (error) {
      const reason = (error as Error).message;
      throw invalidState(reason === 'expired' ? 'it has expired' : 'it failed its integrity check (altered or not issued by this server)');
    }
    if (!sameTag(sealed.b, this.tag(invocation))) {
      throw invalidState('it was issued for another call (different caller, tool or arguments)');
    }
    if (sealed.h === 1) {
      this.pendingUses.set(invocation, { id: sealed.j, expiresAt: new Date(sealed.x) });
    } else if (!(await this.store.consume(sealed.j, new Date(sealed.x)))) {
      throw invalidState('it was already used once');
    }
    return sealed.p;
  }

  private tag(invocation: Binding): string {
    const binding = [invocation.callerKey ?? '', invocation.method, invocation.name, invocation.argumentsHash ?? ''].join('\0');
    return createHmac('sha256', this.key).update(`mcp.requestState.bind:${binding}`).digest('base64url');
  }
}

function sameTag(a: unknown, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

function invalidState(why: string): McpProtocolError {
  return McpProtocolError.invalidParams(`Invalid requestState: ${why}. Call again without requestState and inputResponses to start over.`);
}
