import { demoSeedOutsideEmbedded, isEmbeddedDefault, type AppConfig } from './config.js';
import { buildApp } from './app.js';
import { fatalDatabaseHandler, openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import { allAreasExecutor } from './db/tenant.js';
import { failInterruptedFiles } from './modules/datalog/datalog-service.js';
import { endUnqueuedResults } from './modules/processing/recovery.js';
import { answersHealth, readyLine } from './ready.js';
import { seedDemo } from './seed/index.js';
import type { StartupGate } from './startup-gate.js';
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
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    onFatal: (error) => onFatal(error),
  });
  const applied = await migrate(database);
  // The demo month of time series (seed/timeseries.ts, ~30 s on PGlite) is imported after the server
  // listens, so a first start answers in seconds and the data log fills while people look.
  // The settlement areas are the platform's own (fixed uuids, which the market functions in tokens
  // name, e.g. the Keycloak realm's), so every start makes sure they exist; the rest of the demo
  // (users with the password "demo", fleet, infrastructure ...) only with SEED_DEMO.
  const seeded = await seedDemo(database, config.seedDemo ? { skip: ['timeseries'] } : { only: ['areas'] });
  // Uploads a previous process was reading when it stopped show as failed, not as running for ever.
  const interrupted = await failInterruptedFiles(allAreasExecutor(database, 'start-up: fail interrupted uploads'));
  // Procedure results a stopped process left without a job (it died while queuing them) free their
  // period. Before the job runner starts, which settles the runs it left under way (retried or
  // failed, modules/jobs/recovery.ts). Both assume this is the one process on the database.
  const unqueued = await endUnqueuedResults(allAreasExecutor(database, 'start-up: end unqueued procedure results'));
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
  // aggregation, the delayed tasks), as the system in the Administration area (no request).
  const scheduled = await app.jobs.applySchedules();
  if (scheduled) app.log.info({ schedules: scheduled }, 'jobs scheduled');
  else app.log.warn('No job scheduled: there is no Administration area to run them in');
  app.log.info(
    {
      database: database.kind,
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
      await gate.close();
      await app.close();
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
    const started = Date.now();
    seedDemo(database, { only: ['timeseries'] }).then(
      () => app.log.info({ seconds: (Date.now() - started) / 1000 }, 'demo time series ready'),
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
