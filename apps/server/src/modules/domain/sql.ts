import type { SQL } from 'drizzle-orm';
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
