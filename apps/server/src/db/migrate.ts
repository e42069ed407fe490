import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.js';
import { DATABASE_LOCKS, withDatabaseLock } from './node-lease.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface MigrateOptions {
  /** The folder of the migrations; default db/migrations. */
  dir?: string;
  /**
   * Stop after this number (e.g. '0362': 0362_*.sql is the last applied), to give a test the schema
   * an older release had; a later call without it applies the rest.
   */
  upTo?: string;
}

/**
 * Applies numbered SQL migrations (NNNN_name.sql) in order, each in its own transaction, and records
 * them in schema_migrations. On a real server an advisory lock keeps two starting processes apart:
 * held on a connection of its own (a pooled statement may lock on one connection and unlock on
 * another, which left the lock held by an idle connection), so the second waits and then finds
 * every migration applied.
 */
export async function migrate(database: Database, options: MigrateOptions = {}): Promise<string[]> {
  const dir = options.dir ?? MIGRATIONS_DIR;
  const upTo = options.upTo;
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f) && (upTo === undefined || f.slice(0, 4) <= upTo))
    .sort();
  const applied = await withDatabaseLock(database, DATABASE_LOCKS.migrations, async () => {
    // Inside the lock: two CREATE TABLE IF NOT EXISTS at once may both try to create it.
    await database.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    try {
      const done = new Set(
        (await database.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version),
      );
      const fresh: string[] = [];
      for (const file of files) {
        if (done.has(file)) continue;
        const script = readFileSync(join(dir, file), 'utf8');
        await database.exec(
          `BEGIN;\n${script}\n;INSERT INTO schema_migrations (version) VALUES ('${file.replace(/'/g, "''")}');\nCOMMIT;`,
        );
        fresh.push(file);
      }
      return fresh;
    } catch (error) {
      await database.exec('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
  return applied ?? [];
}
