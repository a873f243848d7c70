import { request, type OutgoingHttpHeaders } from 'node:http';

export interface SlowAnswer {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
  /** Milliseconds from the request's start to the end of the answer. */
  elapsedMs: number;
  /** Bytes of the body written before the answer arrived. */
  written: number;
}

/**
 * Sends a body a few bytes at a time (`bytes` every `everyMs`), as a slow or hostile client does,
 * and resolves with the answer, whenever it comes: before the body is complete (the server gave
 * up on it) or after. Stops writing once an answer arrives; gives up after `giveUpMs`.
 */
export function trickle(
  url: string,
  body: Buffer | string,
  options: { headers?: OutgoingHttpHeaders; bytes?: number; everyMs?: number; giveUpMs?: number } = {},
): Promise<SlowAnswer> {
  const target = new URL(url);
  const payload = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const step = options.bytes ?? 1;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: options.headers },
      (res) => {
        answered = true;
        clearInterval(timer);
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text, headers: res.headers, elapsedMs: performance.now() - started, written });
          req.destroy();
        });
      },
    );
    req.on('error', (error) => (answered ? undefined : reject(error)));
    req.flushHeaders();
    const timer = setInterval(() => {
      if (answered) return;
      if (performance.now() - started > (options.giveUpMs ?? 10_000)) {
        clearInterval(timer);
        req.destroy();
        reject(new Error(`no answer within ${options.giveUpMs ?? 10_000} ms`));
        return;
      }
      if (written < payload.length) {
        req.write(payload.subarray(written, written + step));
        written = Math.min(payload.length, written + step);
        if (written === payload.length) req.end();
      }
    }, options.everyMs ?? 50);
  });
}
