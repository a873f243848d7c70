import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * A request with full control of the bytes and headers (Host, Content-Length, chunked bodies),
 * which fetch does not allow. `chunks` are written one by one; `end: false` leaves the body open
 * so a test can observe an answer that arrives before the client finished sending. `path` is sent
 * as it is (a URL would drop a fragment or normalize it).
 */
export function rawRequest(
  url: string,
  options: { method?: string; path?: string; headers?: OutgoingHttpHeaders; chunks?: Array<string | Buffer>; end?: boolean },
): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: options.path ?? target.pathname,
        method: options.method ?? 'POST',
        headers: options.headers,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    // Headers go out now, even when no body chunk follows (Node would hold them until the first write).
    req.flushHeaders();
    for (const chunk of options.chunks ?? []) req.write(chunk);
    if (options.end !== false) req.end();
  });
}
