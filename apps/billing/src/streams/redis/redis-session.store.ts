import type { McpSession, McpSessionStore } from '@nest-mcp/core';
import type { RedisConnection } from './redis-connection.js';

/**
 * Sessions as Redis hashes that expire with the session (`PEXPIREAT expiresAt`): `data` (what
 * never changes, JSON), `logLevel`, `subscriptions` (JSON array), `expiresAt` (ms). Each URI has a
 * set of the sessions that subscribed to it; entries of sessions gone or unsubscribed are dropped
 * when the set is read, so an update writes one hash and the sets only grow by SADD.
 */

/** KEYS: session, then the subscribers set of each URI subscribed. ARGV: field/value pairs (JSON; false = delete), session id, unused, 'create' or 'update' (an update of an unknown session is a no-op). */
const WRITE = `
local pairs_ = cjson.decode(ARGV[1])
if ARGV[4] == 'update' and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 1, #pairs_, 2 do
  if pairs_[i + 1] == false then redis.call('HDEL', KEYS[1], pairs_[i]) else redis.call('HSET', KEYS[1], pairs_[i], pairs_[i + 1]) end
end
local expires = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
redis.call('PEXPIREAT', KEYS[1], expires)
local id = ARGV[2]
for i = 2, #KEYS do
  redis.call('SADD', KEYS[i], id)
  if redis.call('PEXPIRETIME', KEYS[i]) < expires then redis.call('PEXPIREAT', KEYS[i], expires) end
end
return 1
`;

/** KEYS[1]: subscribers set of ARGV[1] (the URI). ARGV[2]: session key prefix. Returns live subscribers. */
const SUBSCRIBERS = `
local live = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local subscriptions = redis.call('HGET', ARGV[2] .. id, 'subscriptions')
  local found = false
  if subscriptions then
    for _, uri in ipairs(cjson.decode(subscriptions)) do if uri == ARGV[1] then found = true end end
  end
  if found then table.insert(live, id) else redis.call('SREM', KEYS[1], id) end
end
return live
`;

export class RedisSessionStore implements McpSessionStore {
  constructor(private readonly redis: RedisConnection) {}

  async create(session: McpSession): Promise<void> {
    const data = {
      callerKey: session.callerKey,
      protocolVersion: session.protocolVersion,
      clientInfo: session.clientInfo,
      clientCapabilities: session.clientCapabilities,
      createdAt: session.createdAt.getTime(),
    };
    await this.write(
      'create',
      session.id,
      {
        data: JSON.stringify(data),
        logLevel: session.logLevel ?? false,
        subscriptions: JSON.stringify(session.subscriptions),
        expiresAt: String(session.expiresAt.getTime()),
      },
      session.subscriptions,
    );
  }

  async get(id: string): Promise<McpSession | undefined> {
    const hash = await this.redis.commands.hGetAll(this.sessionKey(id));
    if (!hash.data || !(Number(hash.expiresAt) > Date.now())) return undefined;
    const data = JSON.parse(hash.data) as Omit<McpSession, 'createdAt' | 'id' | 'subscriptions' | 'expiresAt'> & { createdAt: number };
    return {
      id,
      callerKey: data.callerKey,
      protocolVersion: data.protocolVersion,
      ...(data.clientInfo ? { clientInfo: data.clientInfo } : {}),
      clientCapabilities: data.clientCapabilities,
      ...(hash.logLevel ? { logLevel: hash.logLevel as McpSession['logLevel'] } : {}),
      subscriptions: JSON.parse(hash.subscriptions ?? '[]') as string[],
      createdAt: new Date(data.createdAt),
      expiresAt: new Date(Number(hash.expiresAt)),
    };
  }

  async update(id: string, patch: Partial<Pick<McpSession, 'logLevel' | 'subscriptions' | 'expiresAt'>>): Promise<void> {
    const fields: Record<string, string | false> = {};
    if ('logLevel' in patch) fields.logLevel = patch.logLevel ?? false;
    if (patch.subscriptions) fields.subscriptions = JSON.stringify(patch.subscriptions);
    if (patch.expiresAt) fields.expiresAt = String(patch.expiresAt.getTime());
    if (!Object.keys(fields).length) return;
    await this.write('update', id, fields, patch.subscriptions ?? []);
  }

  async delete(id: string): Promise<void> {
    await this.redis.commands.del(this.sessionKey(id));
  }

  async subscribersOf(uri: string): Promise<string[]> {
    return (await this.redis.script(SUBSCRIBERS, [this.subscribersKey(uri)], [uri, this.sessionKey('')])) as string[];
  }

  private async write(
    mode: 'create' | 'update',
    id: string,
    fields: Record<string, string | false>,
    subscriptions: string[],
  ): Promise<void> {
    const pairs = Object.entries(fields).flat();
    await this.redis.script(
      WRITE,
      [this.sessionKey(id), ...subscriptions.map((uri) => this.subscribersKey(uri))],
      [JSON.stringify(pairs), id, '', mode],
    );
  }

  private sessionKey(id: string): string {
    return this.redis.key('session', id);
  }

  private subscribersKey(uri: string): string {
    return this.redis.key('subscribers', uri);
  }
}
