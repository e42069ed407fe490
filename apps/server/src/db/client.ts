import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { scheduleEmbeddedSession } from './embedded-session.js';

/**
 * The one database handle the server uses. Drizzle's node-postgres and PGlite drivers expose the
 * same query builder and `execute()` with `.rows`; we type both as NodePgDatabase so that services
 * and repositories are written once. Only `.rows` of raw results may be relied on.
 */
export type Db = NodePgDatabase;

/**
 * What repositories run SQL on: the database handle or a transaction of it. Services open the
 * transaction; the Excel import passes its own so a whole workbook is stored all or nothing.
 */
export type Executor = Pick<Db, 'execute'>;
/** A transaction (or the handle) that can also open nested transactions (savepoints). */
export type TxExecutor = Pick<Db, 'execute' | 'transaction'>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs a multi-statement SQL script without parameters (migrations, fixtures). */
  exec(script: string): Promise<void>;
  /** Raw parameterised query, for the rare statement the query builder cannot express. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** The PGlite instance in embedded mode (pg-boss's fromPglite adapter needs it). */
  pglite?: PGlite;
  /** The pool in server mode. */
  pool?: pg.Pool;
  /**
   * The connection string in server mode: the job runner (modules/jobs) opens pg-boss's own pool
   * with it, as the owning user, while `pool` switches to railwatt_app.
   */
  url?: string;
  /**
   * Set when the embedded database failed fatally (its WebAssembly module aborted, or PostgreSQL
   * inside it hit FATAL or PANIC): every later query would fail too, so /health answers 503 and
   * the process exits (see fatalDatabaseHandler).
   */
  fatalError?: unknown;
  /**
   * Switches every later statement to the railwatt_app role (migration 0070): not a superuser, not
   * the owner, so row-level security holds. Call it after migrate and seed, before serving.
   */
  useAppRole(): Promise<void>;
  close(): Promise<void>;
}

/** The role the server works as once migrations and seed are done (ARCHITECTURE.md "Row-level security"). */
export const APP_ROLE = 'railwatt_app';

export interface DatabaseOptions {
  /** postgres://... ; when unset, PGlite runs in-process. */
  url?: string;
  /** PGlite data directory; 'memory://' (or undefined) keeps it in memory. */
  dataDir?: string;
  /** PGlite only: start from this data-directory dump (tests clone a migrated template this way). */
  loadDataDir?: Blob;
  /** Called once when the embedded database fails fatally (server.ts: log and exit). */
  onFatal?: (error: unknown) => void;
  /**
   * PostgreSQL: this process's node number (db/node-lease.ts). Every connection starts with
   * `-c railwatt.node=<node>`, so the rows it leaves under way name it (rw_node(), migration 0390).
   */
  node?: number;
}

/**
 * True for an error after which an embedded PGlite cannot answer again: the WebAssembly module
 * aborted (RuntimeError, 'Aborted(...)', out-of-bounds memory), or the PostgreSQL inside it reported
 * FATAL or PANIC. An ordinary SQL error (a DatabaseError with severity ERROR) is not fatal.
 */
export function isFatalEmbeddedError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const severity = (error as Error & { severity?: unknown }).severity;
  if (severity === 'FATAL' || severity === 'PANIC') return true;
  // WebAssembly.RuntimeError (the DOM typings that declare it as a value are not loaded here).
  if (error.name === 'RuntimeError') return true;
  return /^Aborted\(|unreachable|memory access out of bounds|PGlite is closed/i.test(error.message);
}

const HEALTH_TIMEOUT_MS = 2000;

/** SELECT 1 within two seconds, and no fatal error seen: the database can answer. */
export async function databaseHealthy(database: Database): Promise<boolean> {
  if (database.fatalError !== undefined) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), HEALTH_TIMEOUT_MS);
  });
  try {
    const ping = database.query<{ ok: number }>('SELECT 1 AS ok').then((rows) => rows[0]?.ok === 1);
    return await Promise.race([ping, timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export interface FatalLog {
  fatal(object: Record<string, unknown>, message: string): void;
}

/**
 * What server.ts does when the embedded database fails fatally: one clear log line, then exit 1,
 * so a supervisor (systemd, Docker, Kubernetes) restarts the process instead of it staying up
 * answering 500 to everything. `exit` is injected so a test can see it called.
 */
export const fatalDatabaseHandler =
  (log: FatalLog, exit: (code: number) => void) =>
  (error: unknown): void => {
    log.fatal(
      { err: error },
      'embedded database failed fatally; exiting with status 1 so that a supervisor restarts the server',
    );
    exit(1);
  };

type PgliteMethod = 'query' | 'exec' | 'transaction';

/**
 * Wraps the PGlite instance's entry points (Drizzle calls query and transaction, migrations exec)
 * so a fatal failure is noticed whichever path hit it. The error still reaches the caller.
 */
function watchForFatal(pglite: PGlite, onError: (error: unknown) => void): void {
  for (const method of ['query', 'exec', 'transaction'] as const satisfies readonly PgliteMethod[]) {
    const original = (pglite[method] as (...args: unknown[]) => Promise<unknown>).bind(pglite);
    const watched = async (...args: unknown[]) => {
      try {
        return await original(...args);
      } catch (error) {
        onError(error);
        throw error;
      }
    };
    Object.defineProperty(pglite, method, { value: watched, configurable: true, writable: true });
  }
}

// timestamptz as ISO strings, numeric as JS numbers, int8 as number: the API speaks JSON.
pg.types.setTypeParser(1700, (v) => Number(v));
pg.types.setTypeParser(20, (v) => Number(v));

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const newPool = (role?: string) => {
      // `-c role=...` makes every connection of the pool start as that role: no connection can
      // escape it, unlike a SET ROLE on connect that a RESET ROLE would undo.
      const settings = [
        ...(role ? [`-c role=${role}`] : []),
        ...(options.node !== undefined ? [`-c railwatt.node=${Math.trunc(options.node)}`] : []),
      ];
      const pool = new pg.Pool({
        connectionString: options.url,
        max: 10,
        ...(settings.length > 0 ? { options: settings.join(' ') } : {}),
      });
      // An idle client that the server drops (restart, DROP DATABASE ... WITH (FORCE)) emits 'error' on the
      // pool; unhandled, that would crash the process. The next query simply gets a new connection.
      pool.on('error', () => undefined);
      return pool;
    };
    const ownerPool = newPool();
    const database: Database = {
      kind: 'postgres',
      db: drizzlePg(ownerPool),
      pool: ownerPool,
      url: options.url,
      exec: async (script) => {
        await database.pool!.query(script);
      },
      query: async <T>(text: string, params?: unknown[]) => (await database.pool!.query(text, params)).rows as T[],
      useAppRole: async () => {
        const owner = database.pool!;
        const pool = newPool(APP_ROLE);
        database.pool = pool;
        database.db = drizzlePg(pool);
        await owner.end();
      },
      close: () => database.pool!.end(),
    };
    return database;
  }
  const dataDir = options.dataDir && options.dataDir !== 'memory://' ? options.dataDir : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create({
    dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { btree_gist },
    // Same JS types as the pg driver above: numeric and int8 as numbers.
    parsers: { 1700: (v: string) => Number(v), 20: (v: string) => Number(v) },
  });
  let closing = false;
  // One session for the whole process: reads run between a long transaction's statements, writes
  // wait for its end, and a wait from inside it fails at once (embedded-session.ts).
  const session = scheduleEmbeddedSession(pglite);
  const database: Database = {
    kind: 'pglite',
    // The cast is sound for what we use (query builder, transaction, execute().rows); see the type comment.
    db: drizzlePglite(pglite) as unknown as Db,
    pglite,
    exec: async (script) => {
      await pglite.exec(script);
    },
    query: async <T>(text: string, params?: unknown[]) => (await pglite.query<T>(text, params)).rows,
    // One session: SET ROLE holds for every later statement (and RESET ROLE is never issued).
    useAppRole: async () => {
      await pglite.exec(`SET ROLE ${APP_ROLE}`);
      session.setSessionRole(APP_ROLE);
    },
    close: () => {
      closing = true;
      return pglite.close();
    },
  };
  watchForFatal(pglite, (error) => {
    if (closing || database.fatalError !== undefined || !isFatalEmbeddedError(error)) return;
    database.fatalError = error;
    options.onFatal?.(error);
  });
  return database;
}
