import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Request, Response } from 'express';
import { resolveMcpOptions } from '../options/mcp-options.resolver.js';
import { checkHost, createHostCheck } from './request-origin.check.js';

/**
 * The Host rule on connections the e2e tests cannot open (they all arrive on 127.0.0.1): a
 * server reached on a non-loopback address checks Host only when it is reachable by name.
 */

const options = resolveMcpOptions({});

function request(localAddress: string, host: string | undefined, path = '/v1/customers'): Request {
  return { socket: { localAddress }, headers: host === undefined ? {} : { host }, path } as unknown as Request;
}

function run(check: ReturnType<typeof createHostCheck>, req: Request) {
  const answer: { passed: boolean; status?: number; body?: any; headers: Record<string, unknown> } = { passed: false, headers: {} };
  const res = {
    status(code: number) {
      answer.status = code;
      return res;
    },
    json(body: unknown) {
      answer.body = body;
      return res;
    },
    setHeader(name: string, value: unknown) {
      answer.headers[name.toLowerCase()] = value;
    },
    end(bytes: Buffer) {
      answer.body = JSON.parse(bytes.toString());
    },
  } as unknown as Response;
  check(req, res, () => (answer.passed = true));
  return answer;
}

describe('Host check on every route', () => {
  const byName = createHostCheck(options, { publicHostname: 'Billing.Example.test', exemptPaths: ['/health'] });
  const unnamed = createHostCheck(options, { exemptPaths: ['/health'] });

  it('with a public host name, refuses another Host on a non-loopback connection with 403 and names the expected host', () => {
    const answer = run(byName, request('10.0.0.5', 'evil.example'));
    assert.equal(answer.passed, false);
    assert.equal(answer.status, 403);
    assert.equal(answer.body.message, 'Host "evil.example" is not allowed: this server is reached as billing.example.test');
  });

  it('with a public host name, accepts it (any case, any port) on any connection, and loopback names only on loopback ones', () => {
    assert.equal(run(byName, request('10.0.0.5', 'BILLING.example.test:443')).passed, true);
    assert.equal(run(byName, request('127.0.0.1', 'billing.example.test')).passed, true);
    assert.equal(run(byName, request('127.0.0.1', '[::1]:3000')).passed, true);
    assert.equal(run(byName, request('10.0.0.5', '10.0.0.5:3000')).passed, false);
  });

  it('refuses a request without Host when the rule applies', () => {
    assert.equal(run(byName, request('10.0.0.5', undefined)).body.message, 'The Host header is required');
  });

  it('without a public host name, leaves non-loopback connections alone and guards loopback ones (DNS rebinding)', () => {
    assert.equal(run(unnamed, request('10.0.0.5', 'anything.example')).passed, true);
    assert.equal(run(unnamed, request('::ffff:127.0.0.1', 'evil.example')).status, 403);
  });

  it('lets health probes through by IP, whatever the case of the path', () => {
    assert.equal(run(byName, request('10.0.0.5', '10.0.0.5:3000', '/health/ready')).passed, true);
    assert.equal(run(byName, request('10.0.0.5', '10.0.0.5:3000', '/HEALTH/live')).passed, true);
    assert.equal(run(byName, request('10.0.0.5', '10.0.0.5:3000', '/healthz')).passed, false);
  });

  it('answers a refusal on the MCP path as a JSON-RPC error, and a passed request is not checked again by the endpoint', () => {
    const refused = run(byName, request('10.0.0.5', 'evil.example', '/MCP'));
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, -32600);
    assert.equal(refused.headers['cache-control'], 'no-store');
    const passed = request('127.0.0.1', 'billing.example.test', '/mcp');
    assert.match(
      checkHost(passed, options) ?? '',
      /not allowed for a server bound to localhost/,
      'the endpoint alone does not know the public name',
    );
    assert.equal(run(byName, passed).passed, true);
    assert.equal(checkHost(passed, options), undefined);
  });
});
