import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundBaseUrl } from './bound-url.js';

describe('boundBaseUrl', () => {
  it('names the bound address, brackets an IPv6 one, and names localhost for every-interface binds', () => {
    assert.equal(boundBaseUrl({ address: '127.0.0.1', family: 'IPv4', port: 3000 }), 'http://127.0.0.1:3000');
    assert.equal(boundBaseUrl({ address: '::1', family: 'IPv6', port: 3000 }), 'http://[::1]:3000');
    assert.equal(boundBaseUrl({ address: '0.0.0.0', family: 'IPv4', port: 8080 }), 'http://localhost:8080');
    assert.throws(() => boundBaseUrl(null), /set publicUrl/);
  });
});
