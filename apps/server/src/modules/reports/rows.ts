import { sql, type SQL } from 'drizzle-orm';
import type { TxExecutor } from '../domain/sql.js';

/**
 * A report's rows in batches, in its sort order, without ever holding them all (issue 20: memory
 * flat at any size).
 *
 * - PostgreSQL: one cursor over the report's one query, in a transaction of its own connection,
 *   fetched BATCH rows at a time; the renderer writes each batch's bytes to the data log (other
 *   connections of the pool) before the next fetch. The query runs once.
 * - The embedded database (PGlite, one session): a transaction held open across the rendering would
 *   make every other request's write wait for the whole report (db/embedded-session.ts), so the rows
 *   come in bounded pages instead, each page its own short statement (ORDER BY the report's sort
 *   keys, which name one row, LIMIT/OFFSET). A page re-runs the query, which is fine for what an
 *   embedded database holds; the cursor is the server mode's.
 */

const BATCH_ROWS = 2_000;

type ReportRow = Record<string, unknown>;

/**
 * The column every row carries with the number of rows of the report (the job's progress), counted
 * by the same statement that makes them: no second run of the query to count it. A column key
 * cannot clash with it (keys are /^[a-z][A-Za-z0-9]*$/); the renderers write only the columns.
 */
export const TOTAL_ROWS = '__total';

const ordered = (query: SQL, sortKeys: readonly string[]): SQL =>
  sql`SELECT *, count(*) OVER () AS ${sql.identifier(TOTAL_ROWS)} FROM (${query}) AS report ORDER BY ${sql.join(
    sortKeys.map((k) => sql.identifier(k)),
    sql`, `,
  )}`;

export function reportRows(
  ex: TxExecutor,
  query: SQL,
  sortKeys: readonly string[],
  options: { embedded: boolean; batchRows?: number },
): AsyncIterable<ReportRow[]> {
  const batch = options.batchRows ?? BATCH_ROWS;
  return options.embedded
    ? pagedRows(ex, ordered(query, sortKeys), batch)
    : cursorRows(ex, ordered(query, sortKeys), batch);
}

async function* pagedRows(ex: TxExecutor, query: SQL, batch: number): AsyncIterable<ReportRow[]> {
  for (let offset = 0; ; offset += batch) {
    const page = (await ex.execute(sql`${query} LIMIT ${batch} OFFSET ${offset}`)).rows as ReportRow[];
    if (page.length > 0) yield page;
    if (page.length < batch) return;
  }
}

/**
 * The cursor's batches as an async iterable: the transaction's callback hands each batch over and
 * waits until the consumer asks for the next one, so at most one batch is in memory; when the
 * consumer stops early (an error while rendering), the callback is told and the transaction ends.
 */
function cursorRows(ex: TxExecutor, query: SQL, batch: number): AsyncIterable<ReportRow[]> {
  return {
    [Symbol.asyncIterator]() {
      let handOver: ((value: { rows: ReportRow[] | null; error?: unknown }) => void) | null = null;
      let pending: Promise<{ rows: ReportRow[] | null; error?: unknown }> | null = null;
      let resume: ((go: boolean) => void) | null = null;
      let started = false;
      const expect = () => {
        pending = new Promise((resolve) => (handOver = resolve));
      };
      const start = () => {
        started = true;
        expect();
        void ex
          .transaction(async (tx) => {
            await tx.execute(sql`DECLARE report_rows NO SCROLL CURSOR FOR ${query}`);
            for (;;) {
              const rows = (await tx.execute(sql.raw(`FETCH FORWARD ${batch} FROM report_rows`))).rows as ReportRow[];
              if (rows.length === 0) break;
              const go = await new Promise<boolean>((resolve) => {
                resume = resolve;
                handOver!({ rows });
              });
              if (!go) return;
            }
            await tx.execute(sql`CLOSE report_rows`);
          })
          .then(
            () => handOver?.({ rows: null }),
            (error: unknown) => handOver?.({ rows: null, error }),
          );
      };
      return {
        async next(): Promise<IteratorResult<ReportRow[]>> {
          if (!started) start();
          else if (resume) {
            const go = resume;
            resume = null;
            expect();
            go(true);
          } else return { done: true, value: undefined };
          const got = await pending!;
          if (got.error) throw got.error;
          if (!got.rows) {
            resume = null;
            return { done: true, value: undefined };
          }
          return { done: false, value: got.rows };
        },
        async return(): Promise<IteratorResult<ReportRow[]>> {
          if (resume) {
            const stop = resume;
            resume = null;
            expect();
            stop(false);
            await pending;
          }
          return { done: true, value: undefined };
        },
      };
    },
  };
}
