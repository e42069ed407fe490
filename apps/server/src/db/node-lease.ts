import { randomInt } from 'node:crypto';
import pg from 'pg';
import type { Database } from './client.js';

/**
 * Several app nodes on one PostgreSQL database (ARCHITECTURE.md "Several nodes", migration 0390).
 *
 * A node's lease: the session advisory lock (NODE_LOCK_CLASS, node) held on a connection of its own
 * for the node's whole life. PostgreSQL releases it the moment that connection ends, whether the
 * process stopped, was killed (SIGKILL) or lost the network; `rw_node_gone(node)` reads pg_locks to
 * tell. What a gone node left under way (a pg-boss job's attempt, an upload, a result being queued)
 * is then settled by whichever node sweeps next (start.ts). A node whose lease connection fails
 * can no longer prove it lives: `onLost` is told, and the server exits (its work would be taken over).
 *
 * Session locks need one connection from lock to unlock: a pooled `query` may lock on one
 * connection and unlock on another. So every lock here has a client of its own.
 */

/** The first key of a node's lease lock (the second is the node's number); rw_node_gone reads it. */
export const NODE_LOCK_CLASS = 4242;

/** The locks a start and a sweep take (single bigint keys, apart from the (class, node) pairs). */
export const DATABASE_LOCKS = {
  /** migrate.ts: one process applies migrations at a time. */
  migrations: 4242001,
  /** start.ts: migrations, seeding and the start-up sweep of one node at a time. */
  startUp: 4242002,
  /** start.ts: the demo time series are imported by one node (the others skip it). */
  demoTimeSeries: 4242003,
  /** start.ts: one node sweeps what gone nodes left at a time. */
  sweep: 4242004,
} as const;

/** A node number: random, so a node knows it before its first connection (pools carry it). */
export const newNodeNumber = (): number => randomInt(1, 2 ** 31 - 1);

/**
 * Runs `work` while holding the session advisory lock `key` on a connection of its own. `wait`:
 * wait for another holder (default); false: answer undefined at once when another holds it. PGlite
 * (one process) runs `work` directly.
 */
export async function withDatabaseLock<T>(
  database: Database,
  key: number,
  work: () => Promise<T>,
  options: { wait?: boolean } = {},
): Promise<T | undefined> {
  if (database.kind !== 'postgres' || !database.url) return work();
  const client = new pg.Client({ connectionString: database.url, application_name: 'railwatt-lock' });
  // A dropped connection emits 'error'; the statement under way fails with it, which is enough.
  client.on('error', () => undefined);
  await client.connect();
  try {
    if (options.wait === false) {
      const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [key]);
      if (!rows[0]?.held) return undefined;
    } else {
      await client.query('SELECT pg_advisory_lock($1)', [key]);
    }
    // Ending the connection releases the lock, also when `work` throws.
    return await work();
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface NodeLease {
  /** The node's number (rw_node() on its connections); undefined on PGlite. */
  readonly node: number | undefined;
  /** Gives the lease up (a clean stop): the node's row goes, its lock with its connection. */
  close(): Promise<void>;
}

/**
 * Takes node `node`'s lease (PostgreSQL; on PGlite a lease of nobody): its app_node row and its
 * lock, on a connection kept open until `close()`. `onLost` is called once when that connection
 * fails while the lease is held.
 */
export async function takeNodeLease(
  database: Database,
  node: number | undefined,
  name: string,
  onLost: (error: unknown) => void,
): Promise<NodeLease> {
  if (database.kind !== 'postgres' || !database.url || node === undefined) {
    return { node: undefined, close: () => Promise.resolve() };
  }
  const client = new pg.Client({ connectionString: database.url, application_name: `railwatt-node-${node}` });
  let closing = false;
  const lost = (error: unknown) => {
    if (closing) return;
    closing = true;
    onLost(error);
  };
  client.on('error', lost);
  client.on('end', () => lost(new Error('the node lease connection ended')));
  await client.connect();
  const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS held', [
    NODE_LOCK_CLASS,
    node,
  ]);
  if (!rows[0]?.held) {
    closing = true;
    await client.end();
    throw new Error(`Node number ${node} is held by another process; start again`);
  }
  await client.query(
    `INSERT INTO app_node (id, name, pid) VALUES ($1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, pid = EXCLUDED.pid, started_at = now()`,
    [node, name, process.pid],
  );
  return {
    node,
    async close() {
      if (closing) return;
      closing = true;
      await client.query('DELETE FROM app_node WHERE id = $1', [node]).catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}
