// CPU pinning for the benchmark (BENCH_PIN=1, `ab-compare --pin`): the server under test gets
// CPU 0 to itself; the load generator and a PostgreSQL server on this machine share the others.
//
// A diagnostic: on a small machine the database runs beside the server, and the scheduler puts
// its backends on the server's core, so a variant that makes the database work harder (an MCP
// write: idempotency row, audit row, explicit transaction) pays for part of that work in the
// server's own CPU time. Pinned, that share goes away, but PostgreSQL and the load generator then
// share the other core(s), which throttles database-heavy rows: not a truer setting, another one
// (figures in bench/README.md).
//
// PostgreSQL's processes are not ours: their affinity is changed only when asked, only for a
// server on this machine, and put back on the way out (its new backends inherit the postmaster's).
import { spawnSync } from 'node:child_process';
import os from 'node:os';

const LOCAL_HOSTS = new Set(['', 'localhost', '127.0.0.1', '::1', '[::1]']);

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return { ok: result.status === 0, out: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

/** `taskset -p` prints "pid 42's current affinity mask: 3". */
function maskOf(pid) {
  const { ok, out } = run('taskset', ['-p', String(pid)]);
  return ok ? /mask:\s*([0-9a-f]+)/i.exec(out)?.[1] : undefined;
}

function postgresPids() {
  const { ok, out } = run('pgrep', ['-x', 'postgres']);
  return ok ? out.split(/\s+/).filter(Boolean).map(Number) : [];
}

/**
 * @param {{ enabled: boolean, databaseUrl?: string, say: (line: string) => void }} options
 * @returns the commands to start the server and the load generator with, `apply()` / `restore()`
 *   for PostgreSQL, and `summary` (for the report; undefined when off).
 */
export function cpuPinning({ enabled, databaseUrl, say }) {
  const off = { server: (argv) => argv, others: (argv) => argv, apply() {}, restore() {}, summary: undefined };
  if (!enabled) return off;
  const cpus = os.availableParallelism();
  if (process.platform !== 'linux' || cpus < 2 || !run('taskset', ['-V']).ok) {
    say(`pinning asked for but not possible here (needs Linux, taskset and 2+ CPUs; ${cpus} CPUs): not pinned`);
    return off;
  }
  const others = cpus === 2 ? '1' : `1-${cpus - 1}`;
  const host = databaseUrl ? new URL(databaseUrl).hostname : '';
  const localDatabase = LOCAL_HOSTS.has(host);
  const saved = new Map();
  let postgres = localDatabase ? 'not found' : `not pinned (${host} is another host)`;
  return {
    server: (argv) => ['taskset', '-c', '0', ...argv],
    others: (argv) => ['taskset', '-c', others, ...argv],
    apply() {
      if (!localDatabase) return;
      for (const pid of postgresPids()) {
        const mask = maskOf(pid);
        if (mask && run('taskset', ['-p', '-c', others, String(pid)]).ok) saved.set(pid, mask);
      }
      postgres = saved.size ? `its ${saved.size} processes on CPU ${others}` : 'could not be pinned (permission?)';
    },
    restore() {
      // Every postgres process, including backends forked while pinned: the postmaster's old mask.
      const original = saved.values().next().value;
      if (!original) return;
      for (const pid of postgresPids()) run('taskset', ['-p', saved.get(pid) ?? original, String(pid)]);
      saved.clear();
    },
    get summary() {
      return `server on CPU 0; load generator on CPU ${others}; PostgreSQL: ${postgres}`;
    },
  };
}
