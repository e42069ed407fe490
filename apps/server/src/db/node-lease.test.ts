import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { openTestDatabase } from '../test/database.js';
import { adminQuery, databaseUrl } from '../test/templates.js';
import { openDatabase, type Database } from './client.js';
import { migrate } from './migrate.js';
import { DATABASE_LOCKS, newNodeNumber, takeNodeLease, withDatabaseLock } from './node-lease.js';

/**
 * A node's lease (ARCHITECTURE.md "Several nodes"): alive while its connection holds the lock, gone
 * the moment it ends; rows a node's connections write name it. PostgreSQL only: PGlite is one
 * process, where every row names no node and counts as a gone one's.
 */

const SERVER_URL = process.env.TEST_DATABASE_URL;

// openTestDatabase is PGlite without TEST_DATABASE_URL.
describe.skipIf(SERVER_URL)('node leases on PGlite', () => {
  it('has no node: every row counts as left by a gone one', async () => {
    const database = await openTestDatabase();
    try {
      const lease = await takeNodeLease(database, 7, 'embedded', () => undefined);
      expect(lease.node).toBeUndefined();
      const [row] = await database.query<{ node: number | null; gone: boolean }>(
        'SELECT rw_node() AS node, rw_node_gone(rw_node()) AS gone',
      );
      expect(row).toEqual({ node: null, gone: true });
      await lease.close();
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(!SERVER_URL)('node leases on PostgreSQL', () => {
  let database: Database;
  let nodeDatabase: Database;
  const node = newNodeNumber();

  beforeAll(async () => {
    database = await openTestDatabase();
    // The same database as a node's pools see it: every connection names the node.
    nodeDatabase = await openDatabase({ url: database.url!, node });
  });
  afterAll(async () => {
    await nodeDatabase?.close();
    await database?.close();
  });

  const gone = async (number: number) =>
    (await database.query<{ gone: boolean }>('SELECT rw_node_gone($1) AS gone', [number]))[0]?.gone;

  it('is alive while held, gone once its connection ends, and its rows name it', async () => {
    expect(await gone(node)).toBe(true);
    let lost: unknown;
    const lease = await takeNodeLease(nodeDatabase, node, 'node-under-test', (error) => (lost = error));
    expect(lease.node).toBe(node);
    expect(await gone(node)).toBe(false);
    expect(await database.query('SELECT name FROM app_node WHERE id = $1', [node])).toEqual([
      { name: 'node-under-test' },
    ]);
    // A second process cannot take the same number.
    await expect(takeNodeLease(nodeDatabase, node, 'twin', () => undefined)).rejects.toThrow(/held by another/);
    expect(await nodeDatabase.query('SELECT rw_node() AS node')).toEqual([{ node }]);

    await lease.close();
    expect(await gone(node)).toBe(true);
    expect(await database.query('SELECT 1 FROM app_node WHERE id = $1', [node])).toEqual([]);
    expect(lost).toBeUndefined();
  });

  it('tells its holder when the lease connection is cut, and the node is gone at once', async () => {
    const other = newNodeNumber();
    let lost: unknown;
    await takeNodeLease(nodeDatabase, other, 'cut-off', (error) => (lost = error));
    expect(await gone(other)).toBe(false);
    // As if the network dropped it: the server ends the lease's backend.
    await database.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [
      `railwatt-node-${other}`,
    ]);
    await expect.poll(() => lost, { timeout: 5000 }).toBeDefined();
    expect(await gone(other)).toBe(true);
  });

  it('runs work under a lock one holder at a time; a holder that does not wait is told', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = withDatabaseLock(database, DATABASE_LOCKS.sweep, () => held.then(() => 'first'));
    await expect
      .poll(async () => withDatabaseLock(database, DATABASE_LOCKS.sweep, async () => 'second', { wait: false }))
      .toBeUndefined();
    release();
    expect(await first).toBe('first');
    expect(await withDatabaseLock(database, DATABASE_LOCKS.sweep, async () => 'third', { wait: false })).toBe('third');
  });

  it('lets two nodes start on a fresh database at once: one applies the migrations, the other finds them', async () => {
    const name = `railwatt_migrate_${randomBytes(6).toString('hex')}`;
    await adminQuery(SERVER_URL!, `CREATE DATABASE ${name}`);
    const [first, second] = await Promise.all([
      openDatabase({ url: databaseUrl(SERVER_URL!, name) }),
      openDatabase({ url: databaseUrl(SERVER_URL!, name) }),
    ]);
    try {
      const applied = await Promise.all([migrate(first), migrate(second)]);
      const counts = applied.map((files) => files.length).sort((a, b) => a - b);
      expect(counts[0]).toBe(0);
      expect(counts[1]).toBeGreaterThan(30);
      const [row] = await first.query<{ n: number; distinct: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT version)::int AS distinct FROM schema_migrations',
      );
      expect(row).toEqual({ n: counts[1], distinct: counts[1] });
    } finally {
      await first.close();
      await second.close();
      await adminQuery(SERVER_URL!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  }, 120_000);
});
