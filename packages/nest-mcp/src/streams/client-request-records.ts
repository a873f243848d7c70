import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { McpEventStore } from '../contracts/stream-backends.js';
import { clientRequestStreamId } from './stream-ids.js';

/** The call a server→client request belongs to: what an answer nobody takes is audited as. */
export interface ClientRequestOrigin {
  method: string;
  /** Tool or prompt name, resource URI. */
  target?: string;
  /** The call's arguments as the client sent them (bounded, see `boundedArguments`); recorded, never sealed into the id. */
  arguments?: Record<string, unknown>;
}

/** What became of one server→client request, as every replica reads it from the event store. */
export interface ClientRequestRecord {
  /** The call that asked, with its arguments, when its record is still retained. */
  origin?: ClientRequestOrigin;
  /** The waiting call took an answer: the digest of that answer (`answerDigest`). */
  answered?: string;
  /** The call stopped waiting without an answer (cancelled, timed out, its client gone); its own hook audited it. */
  ended?: true;
  /** A replica found nobody waiting (the one that asked died) and audited the call as lost: the token of the first report. */
  lost?: string;
}

/** The method of the records' messages: the layer's own, never sent to a client (these streams are not replayed). */
const RECORD_METHOD = 'nest-mcp/client-request';
/** Arguments are written once per question; beyond this much JSON only a preview is kept, as an audit row keeps. */
const MAX_ARGUMENTS_JSON_CHARS = 32_768;
const ARGUMENTS_PREVIEW_CHARS = 2_000;

type RecordParams =
  | { state: 'asked'; origin: ClientRequestOrigin }
  | { state: 'answered'; digest: string }
  | { state: 'ended' }
  | { state: 'lost'; token: string };

/**
 * The shared state of server→client requests, so that any replica receiving a client's answer knows
 * what became of the question: answered already (a client retrying after a lost `202`), abandoned
 * by its call, or lost with the replica that asked. Kept in the event store the replicas already
 * share, one stream per request (`<sessionId>/asked-<nonce>`), as long as it retains events (a
 * request's id expires after `clientRequestTimeoutMs`, which the retention should exceed). Events
 * of one stream come back in the store's order: the first report of a lost call is the one that
 * audits it.
 */
export class ClientRequestRecords {
  constructor(private readonly events: McpEventStore) {}

  asked(sessionId: string, nonce: string, origin: ClientRequestOrigin): Promise<void> {
    const args = boundedArguments(origin.arguments);
    return this.write(sessionId, nonce, { state: 'asked', origin: { ...origin, ...(args ? { arguments: args } : {}) } });
  }

  answered(sessionId: string, nonce: string, digest: string): Promise<void> {
    return this.write(sessionId, nonce, { state: 'answered', digest });
  }

  ended(sessionId: string, nonce: string): Promise<void> {
    return this.write(sessionId, nonce, { state: 'ended' });
  }

  /** Reports the call as lost; true when this report is the first (the one that audits it). */
  async reportLost(sessionId: string, nonce: string): Promise<boolean> {
    const token = randomUUID();
    await this.write(sessionId, nonce, { state: 'lost', token });
    return (await this.read(sessionId, nonce)).lost === token;
  }

  async read(sessionId: string, nonce: string): Promise<ClientRequestRecord> {
    const record: ClientRequestRecord = {};
    for (const { message } of await this.events.eventsOf(clientRequestStreamId(sessionId, nonce))) {
      const params = 'method' in message && message.method === RECORD_METHOD ? (message.params as RecordParams | undefined) : undefined;
      if (params?.state === 'asked') record.origin = params.origin;
      else if (params?.state === 'answered') record.answered ??= params.digest;
      else if (params?.state === 'ended') record.ended = true;
      else if (params?.state === 'lost') record.lost ??= params.token;
    }
    return record;
  }

  private async write(sessionId: string, nonce: string, params: RecordParams): Promise<void> {
    const message = { jsonrpc: '2.0', method: RECORD_METHOD, params } as unknown as JSONRPCMessage;
    await this.events.append(clientRequestStreamId(sessionId, nonce), message);
  }
}

/** The arguments, or a preview of them when their JSON is longer than an audit row keeps. */
function boundedArguments(args: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const json = args === undefined ? undefined : JSON.stringify(args);
  if (json === undefined || json.length <= MAX_ARGUMENTS_JSON_CHARS) return args;
  return { '[truncated]': `${json.length} chars of JSON; the first ${ARGUMENTS_PREVIEW_CHARS}: ${json.slice(0, ARGUMENTS_PREVIEW_CHARS)}` };
}
