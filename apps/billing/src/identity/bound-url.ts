import { Logger } from '@nestjs/common';
import type { AddressInfo } from 'node:net';

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::']);

/**
 * `http://<address>:<port>` of the address the server listens on: the public URL when PUBLIC_URL
 * is unset. A server bound to every interface has no single address to name, so it names
 * localhost and warns: clients elsewhere need PUBLIC_URL.
 */
export function boundBaseUrl(address: AddressInfo | string | null | undefined): string {
  if (!address || typeof address === 'string') {
    throw new Error('The public URL is derived from the bound address, and the server is not listening on TCP: set PUBLIC_URL');
  }
  let host = address.address;
  if (WILDCARD_ADDRESSES.has(host)) {
    host = 'localhost';
    new Logger('PublicUrl').warn(
      `Bound to every interface without PUBLIC_URL: the OAuth resource, challenges and approval links name http://localhost:${address.port}; ` +
        'set PUBLIC_URL to the URL clients use',
    );
  }
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
