import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase, type Database } from './client.js';
import { EmbeddedDeadlockError, outsideTransaction, readAlongside } from './embedded-session.js';

/**
 * The embedded database's one session (embedded-session.ts, issue 17 item 1): reads run between an
 * open transaction's statements, writes wait for its end, and a wait from inside it fails at once
 * instead of hanging the process. PGlite only: PostgreSQL gives every statement a connection.
 */
describe('the embedded session', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
    await database.exec(`CREATE TABLE probe (id int PRIMARY KEY, v text); INSERT INTO probe VALUES (1, 'before')`);
  });
  afterAll(async () => database?.close());

  const hold = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const value = async () => (await database.query<{ v: string }>('SELECT v FROM probe WHERE id = 1'))[0]!.v;

  it('answers a read between the statements of a long transaction, and a write after it', async () => {
    const events: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const hostInserted = new Promise<void>((resolve) => (inserted = resolve));
    const long = database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('railwatt.tenant', 'host-area', true)`);
      await tx.execute(sql`INSERT INTO probe VALUES (2, 'uncommitted')`);
      inserted();
      await released;
      await tx.execute(sql`UPDATE probe SET v = 'host' WHERE id = 1`);
      events.push('host done');
      // The host's own settings survived the reads that ran inside it.
      return (await tx.execute(sql`SELECT current_setting('railwatt.tenant', true) AS area`)).rows[0];
    });
    await hostInserted;
    // Whatever an expectation below finds, the host ends (a host left open would hold every later test).
    onTestFinished(() => release());

    // A read answers while the transaction is open; it sees none of the host's settings, may not
    // write, and (one session) sees its uncommitted row.
    const [read] = await database.query<{ n: number; area: string; ro: string }>(
      `SELECT count(*)::int AS n, current_setting('railwatt.tenant', true) AS area,
              current_setting('transaction_read_only') AS ro FROM probe`,
    );
    expect(read).toEqual({ n: 2, area: '', ro: 'on' });
    events.push('read answered');

    // A write marked as a one-statement read waits for the end and then runs.
    const write = readAlongside(() =>
      database.db.transaction(async (tx) => tx.execute(sql`UPDATE probe SET v = 'after' WHERE id = 1`)),
    ).then(() => events.push('write done'));
    await hold(50);
    expect(events).toEqual(['read answered']);
    release();
    expect(await long).toEqual({ area: 'host-area' });
    await write;
    expect(events).toEqual(['read answered', 'host done', 'write done']);
    expect(await value()).toBe('after');
    const [settings] = await database.query<{ ro: string }>(`SELECT current_setting('transaction_read_only') AS ro`);
    expect(settings!.ro).toBe('off');
  });

  it('refuses at once to wait for the transaction a statement runs inside (the deadlock that hung the server)', async () => {
    const outcome = await database.db.transaction(async () => {
      // What the import once did: awaited a progress write outside its own transaction.
      const progress = readAlongside(() =>
        database.db.transaction(async (tx) => tx.execute(sql`UPDATE probe SET v = 'progress' WHERE id = 1`)),
      );
      return progress.then(
        () => 'written',
        (error: unknown) => error,
      );
    });
    expect(outcome).toBeInstanceOf(EmbeddedDeadlockError);
    await expect(
      database.db.transaction(async () => database.exec(`UPDATE probe SET v = 'script' WHERE id = 1`)),
    ).rejects.toBeInstanceOf(EmbeddedDeadlockError);
  });

  it('lets a transaction hand a write to after its end (outsideTransaction) and read alongside itself', async () => {
    let behind: Promise<unknown> = Promise.resolve();
    const seen = await database.db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE probe SET v = 'in transaction' WHERE id = 1`);
      behind = outsideTransaction(() =>
        readAlongside(() =>
          database.db.transaction(async (t) => t.execute(sql`UPDATE probe SET v = 'written behind' WHERE id = 1`)),
        ),
      );
      return value();
    });
    expect(seen).toBe('in transaction');
    await behind;
    expect(await value()).toBe('written behind');
  });

  it('rolls a failed host back whole while reads come and go', async () => {
    const reads: Promise<string>[] = [];
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE probe SET v = 'lost' WHERE id = 1`);
        reads.push(value());
        await hold(10);
        await tx.execute(sql`SELECT 1/0`);
      }),
    ).rejects.toThrow();
    expect(await Promise.all(reads)).toEqual(['lost']);
    expect(await value()).toBe('written behind');
  });

  it('hands the session to writes in the order they asked, so work that keeps coming back starves none', async () => {
    // What the job queue's polls did: several workers, each taking the session again the moment its
    // transaction ended. An upload's write waited behind them for minutes on a loaded machine.
    let polling = true;
    let polls = 0;
    const worker = async () => {
      while (polling) {
        await database.db.transaction(async (tx) => {
          await tx.execute(sql`SELECT 1`);
          await tx.execute(sql`SELECT 2`);
        });
        polls++;
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await hold(20);
    const before = polls;
    await readAlongside(() =>
      database.db.transaction(async (tx) => tx.execute(sql`UPDATE probe SET v = 'not starved' WHERE id = 1`)),
    );
    const waitedFor = polls - before;
    polling = false;
    await Promise.all(workers);
    // First come, first served: the write ran after at most the eight that had asked before it.
    expect(waitedFor).toBeLessThanOrEqual(8);
    expect(await value()).toBe('not starved');
  });
});
