import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/**
 * What repositories run SQL on: the database handle or a transaction of it. Services open the
 * transaction; the Excel import passes its own so a whole workbook is stored all or nothing.
 */
export type Executor = Pick<Db, 'execute'>;
/** A transaction (or the handle) that can also open nested transactions (savepoints). */
export type TxExecutor = Pick<Db, 'execute' | 'transaction'>;

export async function rows<T>(ex: Executor, query: SQL): Promise<T[]> {
  const result = await ex.execute(query);
  return result.rows as T[];
}

/**
 * The master-data version of entity_segment alias `s` valid at `time`: current (not superseded) and
 * holding the instant (current segments of one entity never overlap: entity_segment_no_overlap).
 * What the procedures read a past month's master data with, instead of the newest (entity_latest).
 */
export const segmentValidAt = (s: string, time: SQL): SQL =>
  sql`(${sql.raw(s)}.superseded_at IS NULL AND ${sql.raw(s)}.valid @> ${time})`;
