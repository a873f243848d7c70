import type { McpSession, McpSessionPatch, McpSessionStore } from '@nest-mcp/core/extensions';
import type { RedisConnection } from '../connection/redis-connection.js';

/**
 * Sessions as Redis hashes that expire with the session (`PEXPIREAT expiresAt`): `data` (what
 * never changes, JSON), `logLevel`, `standaloneStream`, `delivered`, `expiresAt` (ms). Read on
 * every request of a session, the hash stays small: a session's subscriptions are a set of their
 * own (`subscriptions:<id>`, expiring with it), and each URI has a set of the sessions subscribed
 * to it (`subscribers:<uri>`), whose entries of sessions gone or unsubscribed are dropped when it
 * is read. Each caller has a set of its session ids (`caller-sessions:<callerKey>`) to count its
 * live sessions; ids of sessions gone are dropped when a new one is counted. Every change that
 * spans keys is one Lua script, so it is atomic: two replicas cannot both take the last place.
 */

/** Only keys that exist get a later expiry (never a shorter one). */
const EXTEND = `
local function extend(key, expires)
  local at = redis.call('PEXPIRETIME', key)
  if at ~= -2 and at < expires then redis.call('PEXPIREAT', key, expires) end
end
local function apply(key, pairs_)
  for i = 1, #pairs_, 2 do
    if pairs_[i + 1] == false then redis.call('HDEL', key, pairs_[i]) else redis.call('HSET', key, pairs_[i], pairs_[i + 1]) end
  end
end
`;

/**
 * KEYS: session, caller's session set. ARGV: field/value pairs (JSON), session id, max live
 * sessions of the caller, session key prefix. 1 = stored, 0 = the caller is at its cap.
 */
const CREATE = `${EXTEND}
local live = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if redis.call('EXISTS', ARGV[4] .. id) == 1 then live = live + 1 else redis.call('SREM', KEYS[2], id) end
end
if live >= tonumber(ARGV[3]) then return 0 end
apply(KEYS[1], cjson.decode(ARGV[1]))
local expires = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
redis.call('PEXPIREAT', KEYS[1], expires)
redis.call('SADD', KEYS[2], ARGV[2])
extend(KEYS[2], expires)
return 1
`;

/**
 * KEYS: session, its subscriptions set. ARGV: field/value pairs (JSON; false = delete), caller set
 * prefix, subscribers set prefix. An unknown session is a no-op. A later expiry is carried to the
 * keys that must live as long as the session: its subscriptions, its caller's set, and the
 * subscribers set of each URI it subscribed to.
 */
const UPDATE = `${EXTEND}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
apply(KEYS[1], cjson.decode(ARGV[1]))
local expires = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
redis.call('PEXPIREAT', KEYS[1], expires)
extend(KEYS[2], expires)
extend(ARGV[2] .. cjson.decode(redis.call('HGET', KEYS[1], 'data')).callerKey, expires)
for _, uri in ipairs(redis.call('SMEMBERS', KEYS[2])) do extend(ARGV[3] .. uri, expires) end
return 1
`;

/** KEYS: session, its subscriptions set. ARGV: session id, caller set prefix, subscribers set prefix. */
const DELETE = `
local data = redis.call('HGET', KEYS[1], 'data')
if data then redis.call('SREM', ARGV[2] .. cjson.decode(data).callerKey, ARGV[1]) end
for _, uri in ipairs(redis.call('SMEMBERS', KEYS[2])) do redis.call('SREM', ARGV[3] .. uri, ARGV[1]) end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
`;

/**
 * KEYS: session, its subscriptions set, subscribers set of the URI. ARGV: URI, max subscriptions,
 * session id. 1 = subscribed (now or already), 0 = unknown session or at the cap.
 */
const SUBSCRIBE = `${EXTEND}
local expires = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
if not expires then return 0 end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('PEXPIREAT', KEYS[2], expires)
redis.call('SADD', KEYS[3], ARGV[3])
extend(KEYS[3], expires)
return 1
`;

/** KEYS[1]: subscribers set of ARGV[1] (the URI). ARGV[2], ARGV[3]: session and subscriptions key prefixes. Returns live subscribers. */
const SUBSCRIBERS = `
local live = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[2] .. id) == 1 and redis.call('SISMEMBER', ARGV[3] .. id, ARGV[1]) == 1 then
    table.insert(live, id)
  else
    redis.call('SREM', KEYS[1], id)
  end
end
return live
`;

type Fields = Record<string, string | false>;

export class RedisSessionStore implements McpSessionStore {
  constructor(private readonly redis: RedisConnection) {}

  async create(session: McpSession, maxPerCaller: number): Promise<boolean> {
    const data = {
      callerKey: session.callerKey,
      protocolVersion: session.protocolVersion,
      clientInfo: session.clientInfo,
      clientCapabilities: session.clientCapabilities,
      createdAt: session.createdAt.getTime(),
    };
    const fields: Fields = {
      data: JSON.stringify(data),
      logLevel: session.logLevel ?? false,
      standaloneStream: session.standaloneStream ?? false,
      delivered: session.delivered ?? false,
      expiresAt: String(session.expiresAt.getTime()),
    };
    const stored = await this.redis.script(
      CREATE,
      [this.sessionKey(session.id), this.callerKey(session.callerKey)],
      [pairsOf(fields), session.id, String(maxPerCaller), this.sessionKey('')],
    );
    return stored === 1;
  }

  async get(id: string): Promise<McpSession | undefined> {
    const hash = await this.redis.commands.hGetAll(this.sessionKey(id));
    if (!hash.data || !(Number(hash.expiresAt) > Date.now())) return undefined;
    const data = JSON.parse(hash.data) as Pick<McpSession, 'callerKey' | 'protocolVersion' | 'clientInfo' | 'clientCapabilities'> & {
      createdAt: number;
    };
    return {
      id,
      callerKey: data.callerKey,
      protocolVersion: data.protocolVersion,
      ...(data.clientInfo ? { clientInfo: data.clientInfo } : {}),
      clientCapabilities: data.clientCapabilities,
      ...(hash.logLevel ? { logLevel: hash.logLevel as McpSession['logLevel'] } : {}),
      ...(hash.standaloneStream !== undefined ? { standaloneStream: hash.standaloneStream } : {}),
      ...(hash.delivered !== undefined ? { delivered: hash.delivered } : {}),
      createdAt: new Date(data.createdAt),
      expiresAt: new Date(Number(hash.expiresAt)),
    };
  }

  async update(id: string, patch: McpSessionPatch): Promise<void> {
    const fields: Fields = {};
    for (const key of ['logLevel', 'standaloneStream', 'delivered'] as const) {
      if (key in patch) fields[key] = patch[key] ?? false;
    }
    if (patch.expiresAt) fields.expiresAt = String(patch.expiresAt.getTime());
    if (!Object.keys(fields).length) return;
    await this.redis.script(
      UPDATE,
      [this.sessionKey(id), this.subscriptionsKey(id)],
      [pairsOf(fields), this.callerKey(''), this.subscribersKey('')],
    );
  }

  async delete(id: string): Promise<void> {
    await this.redis.script(DELETE, [this.sessionKey(id), this.subscriptionsKey(id)], [id, this.callerKey(''), this.subscribersKey('')]);
  }

  async subscribe(id: string, uri: string, maxPerSession: number): Promise<boolean> {
    const subscribed = await this.redis.script(
      SUBSCRIBE,
      [this.sessionKey(id), this.subscriptionsKey(id), this.subscribersKey(uri)],
      [uri, String(maxPerSession), id],
    );
    return subscribed === 1;
  }

  async unsubscribe(id: string, uri: string): Promise<void> {
    // The URI's subscribers set drops the id when next read.
    await this.redis.commands.sRem(this.subscriptionsKey(id), uri);
  }

  async subscribersOf(uri: string): Promise<string[]> {
    return (await this.redis.script(
      SUBSCRIBERS,
      [this.subscribersKey(uri)],
      [uri, this.sessionKey(''), this.subscriptionsKey('')],
    )) as string[];
  }

  private sessionKey(id: string): string {
    return this.redis.key('session', id);
  }

  private subscriptionsKey(id: string): string {
    return this.redis.key('subscriptions', id);
  }

  private subscribersKey(uri: string): string {
    return this.redis.key('subscribers', uri);
  }

  private callerKey(callerKey: string): string {
    return this.redis.key('caller-sessions', callerKey);
  }
}

/** Field/value pairs as the scripts read them (JSON; false = delete the field). */
function pairsOf(fields: Fields): string {
  return JSON.stringify(Object.entries(fields).flat());
}
