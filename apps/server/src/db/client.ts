import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';

/**
 * The one database handle the server uses. Drizzle's node-postgres and PGlite drivers expose the
 * same query builder and `execute()` with `.rows`; we type both as NodePgDatabase so that services
 * and repositories are written once. Only `.rows` of raw results may be relied on.
 */
export type Db = NodePgDatabase;

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
}

// timestamptz as ISO strings, numeric as JS numbers, int8 as number: the API speaks JSON.
pg.types.setTypeParser(1700, (v) => Number(v));
pg.types.setTypeParser(20, (v) => Number(v));

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const newPool = (role?: string) => {
      // `-c role=...` makes every connection of the pool start as that role: no connection can
      // escape it, unlike a SET ROLE on connect that a RESET ROLE would undo.
      const pool = new pg.Pool({
        connectionString: options.url,
        max: 10,
        ...(role ? { options: `-c role=${role}` } : {}),
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
    extensions: { btree_gist },
    // Same JS types as the pg driver above: numeric and int8 as numbers.
    parsers: { 1700: (v: string) => Number(v), 20: (v: string) => Number(v) },
  });
  // The cast is sound for what we use (query builder, transaction, execute().rows); see the type comment.
  const db = drizzlePglite(pglite) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    pglite,
    exec: async (script) => {
      await pglite.exec(script);
    },
    query: async <T>(text: string, params?: unknown[]) => (await pglite.query<T>(text, params)).rows,
    // One session: SET ROLE holds for every later statement (and RESET ROLE is never issued).
    useAppRole: async () => {
      await pglite.exec(`SET ROLE ${APP_ROLE}`);
    },
    close: () => pglite.close(),
  };
}
