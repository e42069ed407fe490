import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

/** The executors (db/client.ts), named here too, where the modules' repositories find them. */
export type { Executor, TxExecutor } from '../../db/client.js';

export async function rows<T>(ex: Executor, query: SQL): Promise<T[]> {
  const result = await ex.execute(query);
  return result.rows as T[];
}

/**
 * A json/jsonb column's value: parsed already (node-postgres), or its text where a driver hands it
 * over unparsed; `fallback` for NULL.
 */
export function jsonColumn<T>(value: T | string | null | undefined, fallback: T): T {
  if (typeof value === 'string') return JSON.parse(value) as T;
  return value ?? fallback;
}

/**
 * The master-data version of entity_segment alias `s` valid at `time`: current (not superseded) and
 * holding the instant (current segments of one entity never overlap: entity_segment_no_overlap).
 * What the procedures read a past month's master data with, instead of the newest (entity_latest).
 */
export const segmentValidAt = (s: string, time: SQL): SQL =>
  sql`(${sql.raw(s)}.superseded_at IS NULL AND ${sql.raw(s)}.valid @> ${time})`;
