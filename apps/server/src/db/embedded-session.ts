import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { findPgError } from './constraints.js';

/**
 * The embedded database's one session (ARCHITECTURE.md "The embedded session").
 *
 * PGlite is PostgreSQL in single-user mode: one session for every request, job and schedule of the
 * process, and a transaction holds it from BEGIN to COMMIT. Left alone, that gives two failures
 * PostgreSQL's pool never shows:
 *
 * - a long transaction (a file's import, a processing day) keeps every other statement waiting, so
 *   `/health` and every list call hang for as long as it runs;
 * - a transaction that awaits a statement outside itself (the import awaited its progress write)
 *   waits for itself: a deadlock, the process answers nothing until it is killed.
 *
 * The rule here: **while a transaction is open, reads run between its statements and writes wait
 * for its end; nothing may wait for the end of a transaction from inside it.**
 *
 * - The open transaction (the host) runs its statements one at a time through a FIFO gate.
 * - A read that arrives meanwhile (a plain SELECT through `query`, or a one-statement area
 *   transaction marked with `readAlongside`) takes the gate between two of the host's statements and
 *   runs in a subtransaction of the host's: SAVEPOINT, the session's role and no area settings of
 *   the host's, read-only, its statement(s), ROLLBACK TO SAVEPOINT. It sees the host's uncommitted
 *   rows (read uncommitted, on the embedded database only: one session cannot have two snapshots);
 *   nothing it does outlives it.
 * - A read that turns out to write (PostgreSQL refuses it as read-only), every other transaction
 *   and every script wait for the host's end and then run as usual, as PGlite would have run them.
 *   They wait in one queue, first come, first served (`Turns`): the session passes from one to the
 *   next in that order, so a request's write is never starved by background work that keeps coming
 *   back (the job queue's polls once took the session ~14 times a second, each going ahead of an
 *   upload that waited for minutes).
 * - A wait for the host's end that starts inside the host's own async context would never end: it
 *   throws `EmbeddedDeadlockError` at once, naming the statement, so the mistake is a failed test
 *   instead of a hung process. Work that nobody inside the transaction awaits (the job runner's
 *   progress writes) leaves the context with `outsideTransaction`.
 *
 * PostgreSQL (DATABASE_URL) needs none of this: each statement takes a connection of the pool.
 */

/** A wait that could only end after the transaction the waiter runs inside has ended. */
export class EmbeddedDeadlockError extends Error {
  constructor(what: string) {
    super(
      `On the embedded database this would wait for the open transaction it runs inside (${what}); ` +
        'run it inside that transaction, or outside it without awaiting it (outsideTransaction)',
    );
    this.name = 'EmbeddedDeadlockError';
  }
}

interface Host {
  tx?: Transaction;
  /** The host's BEGIN has run (or the host failed before it). */
  ready: Promise<void>;
  /** The host committed or rolled back. */
  ended: Promise<void>;
  /** Set under the gate once the host's work is over: no read may start in it after that. */
  closed: boolean;
  /** Resolves when the host's current statement completes (a read that met an aborted transaction waits for it). */
  tick: Promise<void>;
  ticked: () => void;
}

/** Marks one-statement area transactions (db/tenant.ts boundExecutor.execute) as reads that may run alongside. */
const alongside = new AsyncLocalStorage<boolean>();
/** The host whose work is running in this async context. */
const hostContext = new AsyncLocalStorage<Host>();

/**
 * Runs `work` (one `database.db.transaction` of a setting and one statement) so that, on the
 * embedded database, it may run between the statements of an open transaction if it only reads, or
 * run again after that transaction's end if it writes. The work must be safe to run twice: no
 * effects outside the database.
 */
export function readAlongside<T>(work: () => Promise<T>): Promise<T> {
  return alongside.run(true, work);
}

/** Runs `work` detached from the transaction the caller runs inside (nobody inside it awaits `work`). */
export function outsideTransaction<T>(work: () => Promise<T>): Promise<T> {
  return hostContext.exit(() => alongside.exit(work));
}

/**
 * The session's turnstile: one holder at a time; a waiting read goes before the host's next
 * statement (a request makes several reads one after the other, and each would otherwise wait for
 * one of the host's statements), otherwise first come, first served.
 */
class Gate {
  private busy = false;
  private readonly waiting: { read: boolean; start: () => void }[] = [];
  /** When the last read left the gate (the host gives reads a moment between its statements). */
  lastRead = 0;

  async run<T>(work: () => Promise<T>, read: boolean): Promise<T> {
    if (this.busy) {
      await new Promise<void>((start) => {
        this.waiting.push({ read, start });
      });
    }
    this.busy = true;
    try {
      return await work();
    } finally {
      if (read) this.lastRead = performance.now();
      const next = this.waiting.findIndex((w) => w.read);
      const [waiter] = this.waiting.splice(next >= 0 ? next : 0, 1);
      if (waiter) waiter.start();
      else this.busy = false;
    }
  }
}

/**
 * The queue for the session itself: a transaction, a script or a writing statement takes a turn,
 * runs while no other holds one, and hands the session to the next in the order they asked.
 */
class Turns {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.held) {
      await new Promise<void>((start) => {
        this.waiting.push(start);
      });
    }
    this.held = true;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.held = false;
    }
  }
}

/** The host waits while reads came through the gate this recently (ms), at most POLITE_WAITS times. */
const POLITE_MS = 5;
const POLITE_WAITS = 20;

type Outcome<T> = { done: true; value: T } | { done: false; wait: Promise<void> };

/** A statement a read may run as a guest: one query that reads (writes are refused inside anyway). */
const READ_STATEMENT = /^\s*(SELECT|WITH|VALUES|TABLE|SHOW)\b/i;
/** SQLSTATE read_only_sql_transaction: the guest wanted to write. */
const READ_ONLY_VIOLATION = '25006';

class NeedsOwnTransaction extends Error {}

export interface EmbeddedSession {
  /** The role every guest read takes (the session's: railwatt_app once the server serves). */
  setSessionRole(role: string): void;
}

/**
 * Installs the rule on `pglite` by wrapping its entry points (Drizzle calls query and transaction,
 * migrations exec, pg-boss's adapter transaction). Call once, right after PGlite.create.
 */
export function scheduleEmbeddedSession(pglite: PGlite): EmbeddedSession {
  const original = {
    query: pglite.query.bind(pglite) as PGlite['query'],
    exec: pglite.exec.bind(pglite) as PGlite['exec'],
    transaction: pglite.transaction.bind(pglite) as PGlite['transaction'],
  };
  const gate = new Gate();
  const turns = new Turns();
  let host: Host | null = null;
  let sessionRole = 'none';

  /** Waiting for a turn from inside an open transaction would never end: that transaction holds the turn. */
  const mayWaitForTurn = (what: string) => {
    const inside = hostContext.getStore();
    if (inside && !inside.closed) throw new EmbeddedDeadlockError(what);
  };
  /** Runs `work` in the session's next turn (the caller must not run inside an open transaction). */
  const inTurn = <T>(what: string, work: () => Promise<T>): Promise<T> => {
    mayWaitForTurn(what);
    return turns.run(work);
  };

  /** The host's transaction object: every statement through the gate. */
  const hostTx = (tx: Transaction, self: Host): Transaction => {
    // PGlite runs each statement on this thread: between two of the host's statements the event
    // loop takes a turn, so requests that arrived meanwhile reach the gate before the next one.
    const step = async <T>(work: () => Promise<T>): Promise<T> => {
      await nextTurn();
      // A request between two reads (its own work on this thread) gets a moment to send the next.
      for (let waits = 0; waits < POLITE_WAITS && performance.now() - gate.lastRead < POLITE_MS; waits++) {
        await sleep(POLITE_MS);
      }
      return gate.run(work, false).finally(() => {
        const ticked = self.ticked;
        self.tick = new Promise<void>((resolve) => (self.ticked = resolve));
        ticked();
      });
    };
    return {
      query: (text, params, options) => step(() => tx.query(text, params, options)),
      sql: (strings, ...params) => step(() => tx.sql(strings, ...params)),
      exec: (text, options) => step(() => tx.exec(text, options)),
      rollback: () => step(() => tx.rollback()),
      listen: (channel, callback) => tx.listen(channel, callback),
      get closed() {
        return tx.closed;
      },
    } as Transaction;
  };

  /** The guest's view: reads only; a script or LISTEN needs a transaction of its own. */
  const guestTx = (tx: Transaction): Transaction =>
    ({
      query: (text, params, options) => tx.query(text, params, options),
      sql: (strings, ...params) => tx.sql(strings, ...params),
      exec: () => Promise.reject(new NeedsOwnTransaction()),
      rollback: () => Promise.reject(new NeedsOwnTransaction()),
      listen: () => Promise.reject(new NeedsOwnTransaction()),
      get closed() {
        return false;
      },
    }) as Transaction;

  /** Runs `work` as a guest of `of` between two of its statements, or says what to wait for first. */
  async function asGuest<T>(of: Host, work: (tx: Transaction) => Promise<T>): Promise<Outcome<T>> {
    await of.ready;
    return gate.run(async (): Promise<Outcome<T>> => {
      const tx = of.tx;
      if (of.closed || !tx || tx.closed) return { done: false, wait: of.ended };
      try {
        await tx.query('SAVEPOINT rw_guest');
      } catch {
        // The host's last statement failed and its ROLLBACK TO SAVEPOINT has not run yet.
        return { done: false, wait: Promise.race([of.tick, of.ended]) };
      }
      let outcome: Outcome<T> | { done: false; error: unknown };
      try {
        // Transaction-local settings made in a subtransaction end with its ROLLBACK TO: the host's
        // area, all-areas switch and role are its own again afterwards.
        await tx.query(
          `SELECT set_config('transaction_read_only', 'on', true), set_config('role', $1, true),
                  set_config('railwatt.tenant', '', true), set_config('railwatt.all_areas', '', true)`,
          [sessionRole],
        );
        outcome = { done: true, value: await work(guestTx(tx)) };
      } catch (error) {
        outcome =
          error instanceof NeedsOwnTransaction || findPgError(error)?.code === READ_ONLY_VIOLATION
            ? { done: false, wait: of.ended }
            : { done: false, error };
      }
      await tx.query('ROLLBACK TO SAVEPOINT rw_guest');
      await tx.query('RELEASE SAVEPOINT rw_guest');
      if ('error' in outcome) throw outcome.error;
      return outcome;
    }, true);
  }

  async function asHost<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    let ready!: () => void;
    let ended!: () => void;
    const self: Host = {
      ready: new Promise<void>((resolve) => (ready = resolve)),
      ended: new Promise<void>((resolve) => (ended = resolve)),
      closed: false,
      tick: Promise.resolve(),
      ticked: () => undefined,
    };
    self.tick = new Promise<void>((resolve) => (self.ticked = resolve));
    host = self;
    try {
      return await original.transaction(async (tx) => {
        self.tx = tx;
        ready();
        try {
          return await hostContext.run(self, () => alongside.exit(() => work(hostTx(tx, self))));
        } finally {
          // Under the gate: no guest is between its SAVEPOINT and its ROLLBACK TO when PGlite
          // commits or rolls back, and none starts afterwards.
          await gate.run(async () => {
            self.closed = true;
          }, false);
        }
      });
    } finally {
      self.closed = true;
      if (host === self) host = null;
      ready();
      ended();
    }
  }

  /**
   * A read tries to run as a guest of the open transaction; it runs in a turn of its own when no
   * transaction is open, when the host ended first, or when it turned out to write.
   */
  const readOrTurn = async <T>(what: string, read: (tx: Transaction) => Promise<T>, alone: () => Promise<T>) => {
    for (;;) {
      const open = host;
      if (!open) return inTurn(what, alone);
      const outcome = await asGuest(open, read);
      if (outcome.done) return outcome.value;
      if (outcome.wait === open.ended) return inTurn(what, alone);
      await outcome.wait;
    }
  };

  const transaction = async <T>(work: (tx: Transaction) => Promise<T>): Promise<T> => {
    if (alongside.getStore() !== true) {
      return inTurn('a transaction started inside another', () => asHost(work));
    }
    return readOrTurn('a write started inside another transaction', work, () => asHost(work));
  };

  const query = (async (text: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) => {
    const what = text.slice(0, 60);
    const alone = () => original.query(text, params, options);
    // A read with no transaction open runs at once, between the turns (PGlite queues it behind
    // whatever statement runs).
    if (!host && READ_STATEMENT.test(text)) return alone();
    if (!READ_STATEMENT.test(text)) return inTurn(what, alone);
    return readOrTurn(what, (tx) => tx.query(text, params, options), alone);
  }) as PGlite['query'];

  const exec = (async (text: string, options?: Parameters<PGlite['exec']>[1]) =>
    inTurn(text.slice(0, 60), () => original.exec(text, options))) as PGlite['exec'];

  for (const [name, value] of Object.entries({ query, exec, transaction })) {
    Object.defineProperty(pglite, name, { value, configurable: true, writable: true });
  }
  return {
    setSessionRole(role) {
      sessionRole = role;
    },
  };
}
