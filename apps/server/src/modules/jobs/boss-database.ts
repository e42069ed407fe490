import type { PGlite } from '@electric-sql/pglite';
import type { ConstructorOptions, Db as BossDb } from 'pg-boss';
import type { Database } from '../../db/client.js';

/**
 * Where pg-boss runs its statements, as the owning user in both modes (ARCHITECTURE.md "Background
 * jobs"). pg-boss installs and maintains its own schema `pgboss`; railwatt_app (the role the app
 * switches to, db/client.ts useAppRole) gets no right on it, so a request can neither read another
 * area's payloads from the queue nor change a job.
 *
 * - PostgreSQL: pg-boss's own pool on the same connection string, without `-c role=railwatt_app`.
 * - PGlite: one session, whose current role is railwatt_app once the server serves. Each pg-boss
 *   statement runs in a PGlite transaction (which holds PGlite's lock, so no app statement runs in
 *   between) that first does `SET LOCAL ROLE NONE`: the role of the session user, the owner. (The
 *   session user may take any role, which is what makes this possible; see the note below.) LOCAL
 *   ends with the transaction, on COMMIT and on ROLLBACK alike, so the session is railwatt_app
 *   again for the next statement whatever happened. pg-boss's own `BEGIN; ... COMMIT;` scripts
 *   (installation, maintenance) run inside that transaction: their BEGIN is a no-op warning, their
 *   COMMIT ends the transaction (and with it the owner role) at the end of the script.
 */
export function bossConnection(database: Database): Pick<ConstructorOptions, 'db' | 'connectionString' | 'max'> {
  if (database.kind === 'pglite') {
    if (!database.pglite) throw new Error('The embedded database has no PGlite instance');
    return { db: ownerPglite(database.pglite) };
  }
  if (!database.url) throw new Error('The job runner needs the connection string of the database');
  // A few connections: workers fetch one job at a time, maintenance runs now and then.
  return { connectionString: database.url, max: 4 };
}

/**
 * pg-boss's IDatabase over PGlite, every statement as the owner (see above). Like pg-boss's own
 * fromPglite adapter, a statement with parameters goes through query() (one statement, extended
 * protocol) and one without through exec() (may be a multi-statement script), whose rows are
 * flattened so a RETURNING before the script's COMMIT is not lost.
 *
 * Note: in PGlite the app's railwatt_app role is a guard for the policies, not a wall: the session
 * user is a superuser, so any statement could change the role. Only code in this repository runs
 * statements there, and this adapter is the one place that does (grep "ROLE NONE").
 */
export function ownerPglite(pglite: PGlite): BossDb {
  return {
    executeSql: (text, values) =>
      pglite.transaction(async (tx) => {
        await tx.exec('SET LOCAL ROLE NONE');
        if (values?.length) return { rows: (await tx.query(text, values)).rows };
        const results = await tx.exec(text);
        return { rows: results.flatMap((result) => result.rows) };
      }),
    // In-process LISTEN/NOTIFY: a job sent on a `notify` queue wakes the worker at once. LISTEN
    // needs no privilege; pg-boss's pg_notify runs inside the statements above.
    listen: async (channel, onNotification, onReconnect) => {
      const unlisten = await pglite.listen(channel, onNotification);
      onReconnect();
      return { close: () => unlisten() };
    },
  };
}
