import type { Database } from './client.js';
import type { TxExecutor } from '../modules/domain/sql.js';

/**
 * The executor a request (or a job) in one area works through. Every statement it runs sees only
 * that area's rows: row-level security reads the area the transaction sets (see the migration that
 * enables it). Services never use `database.db` on a request path; they get this from the context.
 */
export function tenantExecutor(database: Database, _tenant: string): TxExecutor {
  // Row-level security binding lands here (issue 6 §2); until then the plain handle.
  return database.db;
}

/**
 * The executor for the few operations that deliberately span every area (start-up maintenance such
 * as failing interrupted uploads). Named, with a reason, so each such use is visible in review and
 * can get its own database role when row-level security applies.
 */
export function allAreasExecutor(database: Database, _reason: string): TxExecutor {
  return database.db;
}
