import { demoSeedOutsideEmbedded, isEmbeddedDefault, type AppConfig } from './config.js';
import { buildApp } from './app.js';
import { fatalDatabaseHandler, openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import type { Database } from './db/client.js';
import { DATABASE_LOCKS, newNodeNumber, takeNodeLease, withDatabaseLock } from './db/node-lease.js';
import type { JobRunner } from './modules/jobs/runner.js';
import { allAreasExecutor } from './db/tenant.js';
import { failInterruptedFiles } from './modules/datalog/datalog-service.js';
import { endUnqueuedResults } from './modules/processing/recovery.js';
import { answersHealth, readyLine } from './ready.js';
import { seedDemo } from './seed/index.js';
import type { StartupGate } from './startup-gate.js';
import type { FastifyBaseLogger } from 'fastify';
import { DEMO_PASSWORD, demoUserSummary } from './seed/users.js';

/**
 * The app's start once the process listens (server.ts): database, migrations, demo data, the app and
 * its jobs; then the gate hands requests to the app. Closes cleanly on SIGINT/SIGTERM. Imported by
 * server.ts only after the gate listens, so the seconds spent loading these modules are seconds in
 * which a request is already answered.
 */
export async function start(config: AppConfig, gate: StartupGate): Promise<void> {
  const exit = (code: number) => process.exit(code);
  // Until the app's logger exists, a fatal database error is written to stderr as JSON.
  let onFatal = fatalDatabaseHandler(
    {
      fatal: (object, message) =>
        console.error(JSON.stringify({ level: 'fatal', msg: message, err: String(object.err) })),
    },
    exit,
  );
  // Until the app's logger exists, to stderr as JSON.
  let logLeaseLost = (error: unknown) =>
    console.error(JSON.stringify({ level: 'fatal', msg: LEASE_LOST, err: String(error) }));
  const onLeaseLost = (error: unknown) => {
    logLeaseLost(error);
    exit(1);
  };
  // On PostgreSQL this process is one node of possibly several (ARCHITECTURE.md "Several nodes"):
  // its connections carry its number, and its lease says it lives.
  const node = config.databaseUrl ? newNodeNumber() : undefined;
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    onFatal: (error) => onFatal(error),
    ...(node !== undefined ? { node } : {}),
  });
  // One starting node at a time: migrations, the demo data (seeders are idempotent, not concurrent)
  // and the start-up sweep. A second node waits here for the first, then finds it all done.
  const started = await withDatabaseLock(database, DATABASE_LOCKS.startUp, async () => {
    const applied = await migrate(database);
    // The demo month of time series (seed/timeseries.ts, ~30 s on PGlite) is imported after the server
    // listens, so a first start answers in seconds and the data log fills while people look.
    // The settlement areas are the platform's own (fixed uuids, which the market functions in tokens
    // name, e.g. the Keycloak realm's), so every start makes sure they exist; the rest of the demo
    // (users with the password "demo", fleet, infrastructure ...) only with SEED_DEMO.
    const seeded = await seedDemo(database, config.seedDemo ? { skip: ['timeseries'] } : { only: ['areas'] });
    // A node whose lease connection fails can no longer show it lives: the others take its work
    // over, so it stops rather than do it twice.
    const lease = await takeNodeLease(database, node, config.nodeName, (error) => onLeaseLost(error));
    // Uploads a stopped process was reading show as failed, not as running for ever; procedure
    // results it left without a job (it died while queuing them) free their period. Before the job
    // runner starts, which settles the runs it left under way (retried or failed,
    // modules/jobs/recovery.ts). Only what nodes that are gone left (a live node's are its own).
    const interrupted = await failInterruptedFiles(allAreasExecutor(database, 'start-up: fail interrupted uploads'));
    const unqueued = await endUnqueuedResults(allAreasExecutor(database, 'start-up: end unqueued procedure results'));
    return { applied, seeded, lease, interrupted, unqueued };
  });
  const { applied, seeded, lease, interrupted, unqueued } = started!;
  // From here on the server is railwatt_app: row-level security holds (ARCHITECTURE.md).
  await database.useAppRole();

  // A person at a terminal gets readable lines; pipes, files and log collectors get JSON.
  const logger = process.stdout.isTTY
    ? {
        level: config.logLevel,
        transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } },
      }
    : undefined;
  const app = await buildApp({ config, database, logger });
  const demoUsers = demoUserSummary().map((u) => `${u.username} (${u.roles.join(', ')})`);
  onFatal = fatalDatabaseHandler(app.log, exit);
  logLeaseLost = (error) => app.log.fatal({ err: error }, LEASE_LOST);
  if (demoSeedOutsideEmbedded(config)) {
    // SEED_DEMO set on PostgreSQL or behind an external issuer: a real installation with accounts
    // anyone who read the README knows. Said at every start, not only the first.
    app.log.warn(
      {
        password: DEMO_PASSWORD,
        users: demoUsers,
        seeders: seeded,
        database: database.kind,
        issuer: config.oidcIssuer,
      },
      `SEED_DEMO is on outside the embedded default (DATABASE_URL or an external OIDC_ISSUER): ` +
        `${demoUsers.length} demo users exist with the password "${DEMO_PASSWORD}"` +
        (config.embeddedIdentityProvider
          ? ' and can sign in here'
          : ' (the external issuer does not know that password, but the users and their market functions are in app_user)') +
        `, with demo fleet, infrastructure and administration data. Unset SEED_DEMO on a real installation.`,
    );
  }
  // Background jobs (pg-boss, as the owning user: modules/jobs/boss-database.ts); app.close() stops them.
  await app.jobs.start();
  // The jobs that run by themselves (their `schedule`: the SFTP intake, the daily metered-energy
  // aggregation, the delayed tasks, the month-end CEBD re-check), as the system in the Administration area (no request).
  const scheduled = await app.jobs.applySchedules();
  if (scheduled) app.log.info({ schedules: scheduled }, 'jobs scheduled');
  else app.log.warn('No job scheduled: there is no Administration area to run them in');
  // What another node left under way when it stopped is taken over within seconds, not at its next start.
  const sweep =
    database.kind === 'postgres'
      ? setInterval(() => void sweepGoneNodes(database, app.jobs, app.log), config.nodeSweepSeconds * 1000)
      : undefined;
  sweep?.unref();
  app.log.info(
    {
      database: database.kind,
      node: lease.node === undefined ? undefined : { number: lease.node, name: config.nodeName },
      migrations: applied,
      seeders: seeded,
      interruptedFiles: interrupted,
      unqueuedResults: unqueued,
    },
    'database ready',
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      // No new connections first, requests under way end; then the jobs and the database.
      clearInterval(sweep);
      await gate.close();
      await app.close();
      await lease.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  // The gate's socket now hands every request to the app (Fastify's own server is never bound).
  await app.ready();
  gate.open(app.routing, app.server);
  app.log.info(
    { url: config.publicUrl, docs: `${config.publicUrl}/api/docs`, issuer: config.oidcIssuer },
    `Railwatt listening on ${config.publicUrl}`,
  );
  if (config.seedDemo && config.seedDemoTimeSeries) {
    const seeding = Date.now();
    // One node imports them; another that starts meanwhile leaves them to it.
    withDatabaseLock(database, DATABASE_LOCKS.demoTimeSeries, () => seedDemo(database, { only: ['timeseries'] }), {
      wait: false,
    }).then(
      (ran) =>
        app.log.info(
          { seconds: (Date.now() - seeding) / 1000 },
          ran ? 'demo time series ready' : 'demo time series are being imported by another node',
        ),
      (error: unknown) => app.log.error({ err: error }, 'demo time series could not be seeded'),
    );
  }
  if (config.seedDemo && isEmbeddedDefault(config)) {
    app.log.info({ password: DEMO_PASSWORD, users: demoUsers }, `demo users, password "${DEMO_PASSWORD}"`);
  } // Said only once the app answers over its own socket: the last line a person at a terminal reads.
  if (await answersHealth(gate.server.address())) {
    app.log.info(readyLine(config, { user: 'erex-administrator', password: DEMO_PASSWORD }));
  } else {
    app.log.error(`Railwatt listens but does not answer ${config.publicUrl}/health; see the lines above`);
  }
}

const LEASE_LOST =
  'the node lease connection failed: exiting with status 1, the other nodes take this node’s work over';

let sweeping = false;

/**
 * What nodes that are gone left under way (ARCHITECTURE.md "Several nodes"): their uploads fail,
 * their results without a job free their period, their job attempts are retried or end
 * (modules/jobs/recovery.ts), their app_node rows go. One node sweeps at a time (a lock the others
 * skip); every NODE_SWEEP_SECONDS on each node, so a node killed in the middle of a run has its
 * days taken over within seconds.
 */
async function sweepGoneNodes(database: Database, jobs: JobRunner, log: FastifyBaseLogger): Promise<void> {
  if (sweeping) return;
  sweeping = true;
  try {
    await withDatabaseLock(
      database,
      DATABASE_LOCKS.sweep,
      async () => {
        // Across areas on purpose: what a gone node left, in every area (grep allAreasExecutor).
        const allAreas = allAreasExecutor(database, 'sweep: what nodes that are gone left under way');
        const files = await failInterruptedFiles(allAreas);
        const results = await endUnqueuedResults(allAreas);
        await jobs.recover();
        const gone = await database.query<{ id: number; name: string }>(
          'DELETE FROM app_node WHERE rw_node_gone(id) RETURNING id, name',
        );
        if (files + results + gone.length > 0) {
          log.warn({ files, results, nodes: gone }, 'what nodes that are gone left under way was settled');
        }
      },
      { wait: false },
    );
  } catch (error) {
    log.error({ err: error }, 'the sweep of gone nodes failed; the next one tries again');
  } finally {
    sweeping = false;
  }
}
