/** One `text/event-stream` event of an MCP answer: its `id` (when resumable) and its JSON-RPC message. */
export interface SseEvent {
  id?: string;
  data: any;
}

/** Reads the SSE events of a response as they arrive; ends with the stream (or when it is aborted). */
export async function* sseEvents(response: Response): AsyncGenerator<SseEvent> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (event) yield event;
    }
  }
}

/**
 * Collects a response's SSE events in the background: `events` grows as they arrive, `ended`
 * settles when the stream ends, is aborted or breaks (the server died).
 */
export function collectSse(response: Response): { events: SseEvent[]; ended: Promise<void> } {
  const events: SseEvent[] = [];
  const ended = (async () => {
    try {
      for await (const event of sseEvents(response)) events.push(event);
    } catch {
      // aborted by the test, or the connection broke
    }
  })();
  return { events, ended };
}

/** The SSE events of a complete body. */
export function parseSse(text: string): SseEvent[] {
  return text.split('\n\n').flatMap((block) => parseEvent(block) ?? []);
}

function parseEvent(block: string): SseEvent | undefined {
  const lines = block.split('\n');
  const data = lines
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  if (!data) return undefined;
  const id = lines
    .find((line) => line.startsWith('id:'))
    ?.slice(3)
    .trim();
  return { ...(id ? { id } : {}), data: JSON.parse(data) };
}
