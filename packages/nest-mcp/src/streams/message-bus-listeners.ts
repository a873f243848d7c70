type Listener = (payload: unknown) => void;

/** A channel's listeners, and the bus's start of receiving it (for buses that have one). */
interface Channel {
  listeners: Set<Listener>;
  started?: Promise<void>;
}

/**
 * The listeners of a message bus by channel, for `McpMessageBus` implementations: a bus starts
 * receiving a channel (a Redis SUBSCRIBE, say) when its first listener comes and stops when the
 * last one goes. Subscribing the same function twice makes two listeners, each ended on its own.
 */
export class MessageBusListeners {
  private readonly byChannel = new Map<string, Channel>();

  /**
   * Adds a listener. `first`: the channel had none before. `remove` ends it and tells whether the
   * channel has none left now (false once a failed start dropped the channel: nothing to stop).
   */
  add(channel: string, onMessage: Listener): { first: boolean; remove: () => boolean } {
    let entry = this.byChannel.get(channel);
    const first = !entry;
    if (!entry) this.byChannel.set(channel, (entry = { listeners: new Set() }));
    const own = entry;
    const listener: Listener = (payload) => onMessage(payload);
    own.listeners.add(listener);
    return {
      first,
      remove: () => {
        own.listeners.delete(listener);
        if (own.listeners.size || this.byChannel.get(channel) !== own) return false;
        this.byChannel.delete(channel);
        return true;
      },
    };
  }

  /**
   * Adds a listener on a bus that must start receiving each channel: the channel's first listener
   * runs `start`, and one added while that is pending waits for it (else it could miss what is
   * published meanwhile). If the start fails, the channel is dropped, every listener that waited
   * for it is removed and rejected with its error, and the channel's next listener starts again.
   * Resolves with the listener's `remove` (see `add`).
   */
  async listen(channel: string, onMessage: Listener, start: () => Promise<void>): Promise<() => boolean> {
    const { first, remove } = this.add(channel, onMessage);
    const entry = this.byChannel.get(channel)!;
    if (first) entry.started = start();
    try {
      await entry.started;
    } catch (error) {
      if (this.byChannel.get(channel) === entry) this.byChannel.delete(channel);
      remove();
      throw error;
    }
    return remove;
  }

  /** The channel's listeners now; a copy, so a listener may subscribe or unsubscribe while it runs. */
  of(channel: string): Listener[] {
    return [...(this.byChannel.get(channel)?.listeners ?? [])];
  }

  /** Calls the channel's listeners now, in the order they came. */
  deliver(channel: string, payload: unknown): void {
    for (const listener of this.of(channel)) listener(payload);
  }

  get isEmpty(): boolean {
    return this.byChannel.size === 0;
  }
}
