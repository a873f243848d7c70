type Listener = (payload: unknown) => void;

/**
 * The listeners of a message bus by channel, for `McpMessageBus` implementations: a bus starts
 * receiving a channel (a Redis SUBSCRIBE, say) when its first listener comes and stops when the
 * last one goes. Subscribing the same function twice makes two listeners, each ended on its own.
 */
export class MessageBusListeners {
  private readonly byChannel = new Map<string, Set<Listener>>();

  /**
   * Adds a listener. `first`: the channel had none before. `remove` ends it and tells whether the
   * channel has none left now (false once `forget` dropped the channel: nothing is left to stop).
   */
  add(channel: string, onMessage: Listener): { first: boolean; remove: () => boolean } {
    let listeners = this.byChannel.get(channel);
    const first = !listeners;
    if (!listeners) this.byChannel.set(channel, (listeners = new Set()));
    const set = listeners;
    const listener: Listener = (payload) => onMessage(payload);
    set.add(listener);
    return {
      first,
      remove: () => {
        set.delete(listener);
        if (set.size || this.byChannel.get(channel) !== set) return false;
        this.byChannel.delete(channel);
        return true;
      },
    };
  }

  /** Drops a channel and its listeners, as when the bus could not start receiving it. */
  forget(channel: string): void {
    this.byChannel.delete(channel);
  }

  /** The channel's listeners now; a copy, so a listener may subscribe or unsubscribe while it runs. */
  of(channel: string): Listener[] {
    return [...(this.byChannel.get(channel) ?? [])];
  }

  /** Calls the channel's listeners now, in the order they came. */
  deliver(channel: string, payload: unknown): void {
    for (const listener of this.of(channel)) listener(payload);
  }

  get isEmpty(): boolean {
    return this.byChannel.size === 0;
  }
}
