import { ErrorReply, type RedisClientType } from '@redis/client';
import { createHash } from 'node:crypto';

const shas = new Map<string, string>();

/**
 * Runs a Lua script by its SHA, sending the script itself the first time a server does not know
 * it (first call on this server, or after `SCRIPT FLUSH` or a restart). Redis runs a script
 * atomically: a change that spans keys cannot interleave with another replica's.
 */
export async function runScript(client: RedisClientType, source: string, keys: string[], args: string[]): Promise<unknown> {
  let sha = shas.get(source);
  if (!sha) shas.set(source, (sha = createHash('sha1').update(source).digest('hex')));
  const options = { keys, arguments: args };
  try {
    return await client.evalSha(sha, options);
  } catch (error) {
    if (error instanceof ErrorReply && error.message.startsWith('NOSCRIPT')) return client.eval(source, options);
    throw error;
  }
}
