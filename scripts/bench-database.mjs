// Scratch databases for the benchmark scripts (scripts/bench.mjs, bench/stream-soak.mjs): one per
// run on the PostgreSQL server they measure against, dropped at the end; those of earlier runs
// whose process is gone (killed mid-run) are dropped first.
import pg from 'pg';

const ident = (name) => `"${name.replaceAll('"', '""')}"`;

/** Runs `work` with a client connected to `url`, then disconnects. */
export async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Creates an empty database `<prefix>_<this pid><suffix>` on the server `serverUrl` names, after
 * dropping this prefix's databases of runs whose process is gone (on a loopback server only: a
 * pid means something only on this machine). Resolves with its name, URL and a `drop()`.
 */
export async function createScratchDatabase(serverUrl, prefix, suffix = '') {
  const name = `${prefix}_${process.pid}${suffix}`;
  await withClient(serverUrl, async (client) => {
    const host = new URL(serverUrl).hostname.replace(/^\[|\]$/g, '');
    if (['127.0.0.1', 'localhost', '::1'].includes(host)) {
      const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname ~ $1', [`^${prefix}_[0-9]+`]);
      for (const { datname } of rows) {
        const pid = Number(new RegExp(`^${prefix}_(\\d+)`).exec(datname)[1]);
        if (pid !== process.pid && !isAlive(pid))
          await client.query(`DROP DATABASE IF EXISTS ${ident(datname)} WITH (FORCE)`).catch(() => undefined);
      }
    }
    await client.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${ident(name)}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`)),
  };
}
