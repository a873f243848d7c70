import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ArgumentsHost } from '@nestjs/common';
import { McpAuthenticationRequiredException } from '@nest-mcp/auth';
import { McpInsufficientScopeException } from '@nest-mcp/core';
import { DatabaseUnavailableException } from '@nest-mcp/prisma';
import { HttpExceptionWithHeadersFilter } from './http-exception-with-headers.filter.js';

/** What the filter wrote on a fake Express response. */
function answer(exception: Parameters<HttpExceptionWithHeadersFilter['catch']>[0]) {
  const sent = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const res = {
    headersSent: false,
    set(headers: Record<string, string>) {
      Object.assign(sent.headers, headers);
      return this;
    },
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
      return this;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => res }) } as unknown as ArgumentsHost;
  new HttpExceptionWithHeadersFilter().catch(exception, host);
  return sent;
}

describe('HttpExceptionWithHeadersFilter: one REST answer for every error that carries headers', () => {
  it('puts the 401 challenge in WWW-Authenticate, not in the body', () => {
    const sent = answer(
      new McpAuthenticationRequiredException('Token expired', {
        resourceMetadataUrl: 'https://api.example/.well-known/oauth-protected-resource',
        invalidToken: true,
      }),
    );
    assert.equal(sent.status, 401);
    assert.match(sent.headers['WWW-Authenticate'], /^Bearer error="invalid_token"/);
    assert.equal(sent.headers['Cache-Control'], 'no-store');
    assert.deepEqual(sent.body, { statusCode: 401, error: 'Unauthorized', message: 'Token expired' });
  });

  it('names the missing scopes of a 403 in the header and the body', () => {
    const sent = answer(
      new McpInsufficientScopeException(['billing:write'], {
        message: 'needs billing:write',
        resourceMetadataUrl: 'https://api.example/meta',
      }),
    );
    assert.equal(sent.status, 403);
    assert.match(sent.headers['WWW-Authenticate'], /scope="billing:write"/);
    assert.equal((sent.body as { scope: string }).scope, 'billing:write');
  });

  it('answers a database outage 503 with Retry-After', () => {
    const sent = answer(new DatabaseUnavailableException(undefined, 7));
    assert.equal(sent.status, 503);
    assert.equal(sent.headers['Retry-After'], '7');
    assert.equal('headers' in (sent.body as object), false);
  });
});
