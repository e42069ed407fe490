import { sql, type SQL } from 'drizzle-orm';
import type { Database, Db, TxExecutor } from './client.js';
import { readAlongside } from './embedded-session.js';

type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * An executor whose every statement runs in a transaction that first sets `setting` (transaction-
 * local, so it ends with the transaction and never leaks to the next user of a pooled connection).
 * `execute` opens a short transaction of its own; `transaction` opens one that the callback's
 * statements (and its nested savepoints) share.
 */
function boundExecutor(database: Database, setting: SQL): TxExecutor {
  const begin = async <T>(work: (tx: Transaction) => Promise<T>): Promise<T> =>
    database.db.transaction(async (tx) => {
      await tx.execute(setting);
      return work(tx);
    });
  return {
    // One statement and its setting: on the embedded database it may run between the statements
    // of a long transaction if it reads, and again after it if it writes (embedded-session.ts).
    execute: ((query: SQL) => readAlongside(() => begin((tx) => tx.execute(query)))) as Db['execute'],
    transaction: ((work: (tx: Transaction) => Promise<unknown>) => begin(work)) as Db['transaction'],
  };
}

/**
 * The executor a request (or a job) in one area works through. Every statement it runs sees only
 * that area's rows: the row-level security policies of migration 0070 compare each row's tenant
 * with the area this transaction sets. Services never use `database.db` on a request path; they
 * get this from the context (request.ctx.db).
 */
export function tenantExecutor(database: Database, tenant: string): TxExecutor {
  return boundExecutor(database, sql`SELECT set_config('railwatt.tenant', ${tenant}, true)`);
}

/**
 * The explicit way across areas (ARCHITECTURE.md "Row-level security"): user management of the
 * erex-administrator, which spans every area, and maintenance that is not a request in one area.
 * Every use is a decision (callers may name their reason); grep for allAreasExecutor to review them.
 */
export function allAreasExecutor(database: Database, _reason?: string): TxExecutor {
  return boundExecutor(database, sql`SELECT set_config('railwatt.all_areas', 'on', true)`);
}

/**
 * The Database seen by one area: `db` is tenantExecutor's, `query` runs each statement in a
 * transaction that sets the area. For services written against Database (the Excel import and
 * export, the data log) whose statements must all fall under row-level security; only `execute`
 * and `transaction` of `db` exist (the query builder is not used on request paths).
 */
export function tenantDatabase(database: Database, tenant: string): Database {
  return boundDatabase(database, tenantExecutor(database, tenant));
}

/** The same view across areas (allAreasExecutor): tests that inspect tables, maintenance. */
export function allAreasDatabase(database: Database): Database {
  return boundDatabase(database, allAreasExecutor(database));
}

function boundDatabase(database: Database, ex: TxExecutor): Database {
  return {
    ...database,
    db: ex as Db,
    query: async <T>(text: string, params: unknown[] = []) => (await ex.execute(withParams(text, params))).rows as T[],
    exec: () => Promise.reject(new Error('exec is for migrations and fixtures, not for an area')),
  };
}

/** A `$1 ... $n` statement as Drizzle SQL, so a raw query runs through an executor. */
function withParams(text: string, params: readonly unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => {
    chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${sql.param(params[Number(part) - 1])}`);
  });
  return sql.join(chunks, sql``);
}
