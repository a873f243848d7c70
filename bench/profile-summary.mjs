#!/usr/bin/env node
// Summarizes a V8 CPU profile written by `BENCH_CPU_PROF=1 npm run bench` (node --cpu-prof):
// self time by package / source folder, the hottest functions, and the inclusive time of the
// functions that matter most (each counted once per stack, so recursion does not inflate it).
//
//   node bench/profile-summary.mjs bench/results/<stamp>/profiles/<case>.cpuprofile [--top 25] [--match text]
//
// With --phases <file.json> (written by `node bench/ab-compare.mjs --profile`: the times of the
// measured bursts of each side), it prints instead the self time per request of each side, by
// package and by function, and their difference, largest first: with --same-process, where one
// process spends more on one path (side b) than on the other (side a). With --b <other.cpuprofile>
// --phases-b <other.json> (two processes: two builds, or a floor against the application), side a
// is read from the first profile and side b from the other, as ab-compare prints it.
// The layer's folders (`@nest-mcp/core/transport`, …) are the stations of docs/request-flow.md.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: node bench/profile-summary.mjs <file.cpuprofile> [--top N] [--match text]');
  process.exit(2);
}
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const top = Number(option('top', 25));
const match = option('match', undefined);
const phasesFile = option('phases', undefined);
const fileB = option('b', undefined);
const phasesFileB = option('phases-b', undefined);
if (fileB && (!phasesFile || !phasesFileB)) {
  console.error('usage: --b <other.cpuprofile> needs --phases <file.json> and --phases-b <other.json>');
  process.exit(2);
}

const loadProfile = (path) => {
  const loaded = JSON.parse(readFileSync(path, 'utf8'));
  return { profile: loaded, nodes: new Map(loaded.nodes.map((node) => [node.id, node])) };
};
const { profile, nodes } = loadProfile(file);
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// Self time per node from samples × time deltas (µs).
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idleUs = [...selfUs.entries()].filter(([id]) => nodes.get(id).callFrame.functionName === '(idle)').reduce((a, [, us]) => a + us, 0);
const busyUs = totalUs - idleUs;

function where(callFrame) {
  const url = callFrame.url || '';
  if (!url) return callFrame.functionName.startsWith('(') ? callFrame.functionName : '(native)';
  if (url.startsWith('node:')) return 'node: core';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  // The billing app and the bench servers (compiled into .bench-dist/), the layer (its package build).
  const own = /\.bench-dist\/(?:apps\/billing\/)?(src\/[^/]+(?:\/[^/]+)?|bench)\//.exec(url);
  if (own) return own[1];
  // The layer and its companion packages (their builds): @nest-mcp/core/<folder>, @nest-mcp/prisma/<folder>, …
  const layer = /packages\/nest-mcp(?:-([a-z]+))?\/dist\/([^/]+)\//.exec(url);
  if (layer) return `@nest-mcp/${layer[1] ?? 'core'}/${layer[2]}`;
  return url
    .replace(/^file:\/\//, '')
    .split('/')
    .slice(-2)
    .join('/');
}
const label = (cf) =>
  `${cf.functionName || '(anonymous)'} ${cf.url ? `${cf.url.replace(/^.*?(node_modules\/|\.bench-dist\/|packages\/nest-mcp[a-z-]*\/dist\/|node:)/, '$1')}:${cf.lineNumber + 1}` : ''}`;

const byWhere = new Map();
const byFunction = new Map();
for (const [id, us] of selfUs) {
  const cf = nodes.get(id).callFrame;
  if (cf.functionName === '(idle)') continue;
  byWhere.set(where(cf), (byWhere.get(where(cf)) ?? 0) + us);
  byFunction.set(label(cf), (byFunction.get(label(cf)) ?? 0) + us);
}

// Inclusive time per function: walk each sampled node's stack, count each function once.
const inclusive = new Map();
for (const [id, us] of selfUs) {
  if (nodes.get(id).callFrame.functionName === '(idle)') continue;
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const key = label(nodes.get(cur).callFrame);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}

if (phasesFile) {
  const own = JSON.parse(readFileSync(phasesFile, 'utf8'));
  if (fileB) {
    // Side a from this profile, side b from the other process's.
    const other = JSON.parse(readFileSync(phasesFileB, 'utf8'));
    const a = sidesOf({ profile, nodes }, own.phases).a;
    const b = sidesOf(loadProfile(fileB), other.phases).b;
    printPhases({ a, b }, { a: own.requests.a, b: other.requests.b }, `${file}\nagainst ${fileB}`);
  } else printPhases(sidesOf({ profile, nodes }, own.phases), own.requests, file);
  process.exit(0);
}

const pct = (us) => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%`;
const ms = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
console.log(
  `${file}\nsampled ${(totalUs / 1e6).toFixed(1)} s, busy (not idle) ${(busyUs / 1e6).toFixed(1)} s; percentages are of busy time\n`,
);
console.log('Self time by package / source folder:');
for (const [name, us] of [...byWhere].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)} ${ms(us)}  ${name}`);
console.log('\nHottest functions (self):');
for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)} ${ms(us)}  ${name}`);
console.log(`\nInclusive time${match ? ` (functions matching "${match}")` : ''}:`);
const inclusiveList = [...inclusive]
  .filter(([name]) => (match ? name.includes(match) : !name.startsWith('(root)') && !name.startsWith('(program)')))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top);
for (const [name, us] of inclusiveList) console.log(`  ${pct(us)} ${ms(us)}  ${name}`);

/**
 * Self time of each side (`a`, `b`) of the measured bursts in one profile, by package and by
 * function. A sample belongs to the burst its time falls in (V8's profile clock and
 * `process.hrtime` are both the monotonic clock).
 */
function sidesOf({ profile: sampled, nodes: byId }, phases) {
  const sides = { a: { byWhere: new Map(), byFunction: new Map() }, b: { byWhere: new Map(), byFunction: new Map() } };
  const sorted = [...phases].sort((x, y) => x[1] - y[1]);
  let at = sampled.startTime;
  let phase = 0;
  for (let i = 0; i < sampled.samples.length; i++) {
    at += sampled.timeDeltas[i] ?? 0;
    while (phase < sorted.length && sorted[phase][2] < at) phase++;
    if (phase >= sorted.length || at < sorted[phase][1]) continue;
    const cf = byId.get(sampled.samples[i]).callFrame;
    if (cf.functionName === '(idle)') continue;
    // A sample's delta is the time until the next one: the time it stands for.
    const us = sampled.timeDeltas[i + 1] ?? 0;
    const side = sides[sorted[phase][0]];
    side.byWhere.set(where(cf), (side.byWhere.get(where(cf)) ?? 0) + us);
    side.byFunction.set(label(cf), (side.byFunction.get(label(cf)) ?? 0) + us);
  }
  return sides;
}

/**
 * Self time per request of each side, by package and by function, sorted by the size of their
 * difference (b − a). A side without requests (one side of a two-process comparison) counts as 0.
 */
function printPhases(sides, requests, title) {
  const perRequest = (map, side) => new Map([...map].map(([key, us]) => [key, requests[side] ? us / requests[side] : 0]));
  const total = (map) => [...map.values()].reduce((sum, us) => sum + us, 0);
  const fmt = (us) => us.toFixed(1).padStart(8);
  console.log(`${title}\nbusy self time per request (µs), side a: ${requests.a ?? 0} requests, side b: ${requests.b ?? 0}\n`);
  for (const [heading, key] of [
    ['By package / source folder', 'byWhere'],
    ['By function', 'byFunction'],
  ]) {
    const a = perRequest(sides.a[key], 'a');
    const b = perRequest(sides.b[key], 'b');
    console.log(
      `${heading}: b − a, a, b (total a ${total(a).toFixed(0)}, b ${total(b).toFixed(0)}, b − a ${(total(b) - total(a)).toFixed(0)})`,
    );
    const rows = [...new Set([...a.keys(), ...b.keys()])].map((name) => [name, a.get(name) ?? 0, b.get(name) ?? 0]);
    rows.sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]));
    for (const [name, ua, ub] of rows.slice(0, top)) console.log(`  ${fmt(ub - ua)} ${fmt(ua)} ${fmt(ub)}  ${name}`);
    console.log('');
  }
}
