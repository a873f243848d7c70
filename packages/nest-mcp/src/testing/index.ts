// @nest-mcp/core/testing: what a test of an app's tools needs, with node:test or any runner.
export { startMcpTestApp, type McpTestApp, type McpTestAppOptions } from './mcp-test-app.js';
export * from './mcp-http.js';
export { encodeParamHeaderValue, paramHeaders } from './param-headers.js';
export { rawRequest, type RawAnswer } from './raw-http.js';
export { trickle, type SlowAnswer } from './slow-http.js';
export { matchSnapshot, describeChange } from './snapshot.js';
export { assertPrototypesClean, assertWellFormedAnswer, hasPollutingKey, nestedJson, prototypesSnapshot } from './wire-checks.js';
export { collectSse, parseSse, sseEvents, type SseEvent } from './sse.js';
export { CONTRACT_MAX_EVENTS_PER_STREAM, streamBackendsContract, type StreamBackendsUnderTest } from './stream-backends.contract.js';
