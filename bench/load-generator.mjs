#!/usr/bin/env node
// The load generator of `npm run bench`: one autocannon run (programmatic API) in a process of
// its own, so it never shares an event loop with the server it measures.
//
//   node bench/load-generator.mjs <config.json> <result.json>
//
// config: { url, method, headers, body, bodyFactory?, verify?, connections, duration?, amount?, timeout? }
// - bodyFactory: "rest-create" | "rest-create-keyed" | "mcp-create-2026" | "mcp-create-2025": a distinct body per request
//   (unique customer emails), made in autocannon's setupRequest (see bench/requests.mjs).
// - verify: a named check of each response body (cheap string tests, bench/requests.mjs); a failed
//   check counts as a mismatch, i.e. as an error of the run.
// The result file holds autocannon's own summary plus latencies recorded here with sub-millisecond
// precision (autocannon's histogram keeps whole milliseconds).
import { readFileSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { bodyFactories, VERIFY } from './requests.mjs';

const [configPath, resultPath] = process.argv.slice(2);
if (!configPath || !resultPath) {
  console.error('usage: node bench/load-generator.mjs <config.json> <result.json>');
  process.exit(2);
}
const config = JSON.parse(readFileSync(configPath, 'utf8'));

// Unique per load-generator process, so warm-up and measured runs never reuse an email.
const BODY_FACTORIES = bodyFactories(`${process.pid.toString(36)}${Date.now().toString(36)}`);

const verify = config.verify ? VERIFY[config.verify] : undefined;
if (config.verify && !verify) throw new Error(`Unknown verify "${config.verify}"`);
const makeBody = config.bodyFactory ? BODY_FACTORIES[config.bodyFactory] : undefined;
if (config.bodyFactory && !makeBody) throw new Error(`Unknown bodyFactory "${config.bodyFactory}"`);

const request = {
  method: config.method ?? 'GET',
  path: new URL(config.url).pathname + new URL(config.url).search,
  headers: config.headers ?? {},
  ...(config.body !== undefined ? { body: config.body } : {}),
  ...(makeBody
    ? {
        setupRequest: (req) => {
          req.body = makeBody();
          return req;
        },
      }
    : {}),
};

// Latencies of 2xx answers in ms (float), as autocannon records them, but unrounded.
let latencies = new Float64Array(1 << 16);
let count = 0;
const record = (ms) => {
  if (count === latencies.length) {
    const grown = new Float64Array(latencies.length * 2);
    grown.set(latencies);
    latencies = grown;
  }
  latencies[count++] = ms;
};

const started = performance.now();
const instance = autocannon(
  {
    url: new URL(config.url).origin,
    connections: config.connections,
    pipelining: 1,
    timeout: config.timeout ?? 10,
    ...(config.amount ? { amount: config.amount } : { duration: config.duration }),
    requests: [request],
    ...(verify ? { verifyBody: verify } : {}),
  },
  (error, result) => {
    if (error) {
      console.error(error);
      process.exit(1);
    }
    const elapsedS = (performance.now() - started) / 1000;
    const sorted = latencies.subarray(0, count).sort();
    const pct = (p) => (count ? sorted[Math.min(count - 1, Math.ceil((p / 100) * count) - 1)] : null);
    const completed = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
    const summary = {
      connections: config.connections,
      durationS: result.duration,
      elapsedS,
      // CPU of this process (µs), so the runner can tell the machine's other load apart.
      loadGeneratorCpuUs: process.cpuUsage().user + process.cpuUsage().system,
      completed,
      ok2xx: result['2xx'],
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      mismatches: result.mismatches,
      resets: result.resets,
      statusCodeStats: result.statusCodeStats,
      // Throughput: completed requests over the run's wall time (autocannon's per-second average
      // is kept too, as requestsAverage).
      rps: completed / result.duration,
      requestsAverage: result.requests.average,
      latencyMs: {
        p50: pct(50),
        p90: pct(90),
        p99: pct(99),
        max: count ? sorted[count - 1] : null,
        mean: count ? sorted.reduce((a, b) => a + b, 0) / count : null,
      },
      autocannonLatencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      bytesPerResponse: result['2xx'] ? result.throughput.total / result['2xx'] : null,
    };
    writeFileSync(resultPath, JSON.stringify(summary, null, 2));
  },
);
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  if (statusCode >= 200 && statusCode < 300) record(responseTime);
});
