import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where a write comes from (`mcp`, `api`, or whatever the application names its own channels):
 * stamped on rows as `created_via` / `updated_via` and on audit rows as `channel`.
 */
export type Channel = string;

/** Tells the channel of the code running now when no MCP call is (a REST request, a job, a seed). */
export type ChannelResolver = () => Channel | undefined;

const storage = new AsyncLocalStorage<Channel>();

/**
 * The channel of the running code: `mcp` inside an MCP call (`McpAuditHook` runs every call in
 * it), else what the application's resolver says. One scope for the stamp on domain rows and
 * the audit row, so the two never disagree.
 */
export const McpChannel = {
  run<T>(channel: Channel, work: () => T): T {
    return storage.run(channel, work);
  },
  /** The channel set by the nearest `run`, if any. */
  current(): Channel | undefined {
    return storage.getStore();
  },
  /**
   * The channel of a write: the nearest `run`'s, else `fallback()`'s. Throws when neither knows:
   * a row whose origin nobody can tell must not be written with a guessed one.
   */
  of(fallback: ChannelResolver): Channel {
    const channel = storage.getStore() ?? fallback();
    if (!channel)
      throw new Error(
        'A row was written where no channel is known (outside an MCP call and outside any request the channel resolver knows): ' +
          'run the work in McpChannel.run(channel, …)',
      );
    return channel;
  },
};

/** The default resolver: outside an MCP call, a write comes through the REST API. */
export const API_CHANNEL: ChannelResolver = () => 'api';
