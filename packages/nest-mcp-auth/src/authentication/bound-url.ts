import { Logger } from '@nestjs/common';
import type { AddressInfo } from 'node:net';

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::']);

/**
 * `http://<address>:<port>` of the address the server listens on: the public URL when `publicUrl`
 * is not given. A server bound to every interface has no single address to name, so it names
 * localhost and warns: clients elsewhere need `publicUrl`.
 */
export function boundBaseUrl(address: AddressInfo | string | null | undefined): string {
  if (!address || typeof address === 'string') {
    throw new Error('McpAuthModule: the public URL is the bound address, and the server is not listening on TCP yet: set publicUrl');
  }
  let host = address.address;
  if (WILDCARD_ADDRESSES.has(host)) {
    host = 'localhost';
    new Logger('McpAuth').warn(
      `Bound to every interface without publicUrl: the OAuth resource and its challenges name http://localhost:${address.port}; ` +
        'set publicUrl to the URL clients use',
    );
  }
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
