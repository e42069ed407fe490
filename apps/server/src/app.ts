import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import { MAX_JSON_BODY_BYTES, clientConfigSchema, type ClientConfig } from '@railwatt/contracts';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from './config.js';
import { databaseHealthy, type Database } from './db/client.js';
import { identityPlugin } from './identity/plugin.js';
import {
  ALL_JOBS,
  deliveryQueue,
  importQueue as jobImportQueue,
  jobDependencies,
  sftpIntakeSettings,
} from './jobs/index.js';
import type { JobDefinition } from './modules/jobs/define-job.js';
import { createJobRunner, type JobRunner } from './modules/jobs/runner.js';
import { procedureTable, type ProcedureDefinition } from './modules/processing/define-procedure.js';
import { ALL_PROCEDURES } from './procedures.js';
import { LOGOUT_SCRIPT_CSP } from './identity/pages.js';
import { createIdentity, type Identity } from './identity/provider.js';
import { accessPlugin } from './plugins/access.js';
import { createTokenVerifier, remoteIssuerKeys } from './plugins/auth.js';
import { docsPlugin } from './plugins/docs.js';
import { errorsPlugin } from './plugins/errors.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { webPlugin } from './plugins/web.js';
import { administrationRoutes } from './routes/administration/index.js';
import { domainRoutes } from './routes/domain/index.js';
import { organisationExtraRoutes } from './routes/domain/organisations-extra.js';
import { userDomainRoutes } from './routes/domain/users.js';
import { keycloakDirectory } from './modules/user/keycloak-admin.js';
import { eventLogRoutes } from './routes/eventlog/index.js';
import { dataLogActions, type DataLogActionKind, type DataLogActionList } from './modules/datalog/registry.js';
import { excelRoutes } from './routes/excel/index.js';
import { jobRoutes } from './routes/jobs/index.js';
import { timeSeriesRoutes } from './routes/timeseries/index.js';
import { AGGREGATION_REEXPORTERS, registerAggregationDelivery } from './modules/settlement/aggregation-delivery.js';
import { reportReorderers } from './modules/reports/service.js';
import { reportQueue } from './jobs/report-order.js';
import { reportRoutes } from './routes/reports/index.js';
import { reportScheduleRoutes } from './routes/processing/report-schedules.js';
import { intakeReimporters } from './modules/timeseries/accept.js';
import { masterDataRoutes } from './routes/masterdata/index.js';
import { setToErrorRoutes } from './routes/processing/set-to-error.js';
import { processingRoutes } from './routes/processing/index.js';
import { delayedTaskRoutes } from './routes/processing/delayed-tasks.js';
import { deadLetterQueueRoutes } from './routes/processing/dead-letter-queues.js';
import { procedureTaskRoutes } from './routes/processing/tasks.js';
import { procedureResultRoutes } from './routes/eventlog/procedure-results.js';
import { processingEventRoutes } from './routes/eventlog/processing-events.js';
import { processRoutes } from './routes/domain/processes.js';
import { processingConfigRoutes } from './routes/processing-config/index.js';
import { API_PREFIX } from './routes/register-call.js';
import { sftpIntegrationRoutes } from './routes/sftpintegration/index.js';
import { statisticsRoutes } from './routes/statistics/index.js';
import { settlementRoutes } from './routes/timeseries/settlement.js';
import { parameterOverviewRoutes } from './routes/timeseries/parameter-overview.js';
import { userRoutes } from './routes/user/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The embedded identity provider; null when tokens come from an external issuer (Keycloak). */
    identity: Identity | null;
    /**
     * The background job runner (modules/jobs): routes queue work with
     * `app.jobs.enqueue(request.ctx, job, payload)`. Started by server.ts, stopped when the app closes.
     */
    jobs: JobRunner;
  }
}

export interface BuildAppOptions {
  config: AppConfig;
  database: Database;
  /** Fastify/pino logger options; defaults to pino at config.logLevel. */
  logger?: FastifyServerOptions['logger'];
  /**
   * The procedures the runs and the chain know (default src/procedures.ts ALL_PROCEDURES; a test
   * passes the list with some replaced).
   */
  procedures?: readonly ProcedureDefinition[];
  /**
   * The job runner's: more jobs (tests' own) besides every declared one (src/jobs ALL_JOBS), and how
   * often an idle worker looks for jobs (default 2 s). The runner is not started here; whoever
   * serves starts it (start.ts, test/app.ts).
   */
  jobs?: { define?: readonly JobDefinition[]; pollingIntervalSeconds?: number };
  /** More data-log actions (a test's own), in place of the app's for the message types they name. */
  dataLogActions?: Partial<Record<DataLogActionKind, DataLogActionList>>;
}

const REQUEST_ID = /^[\w.:-]{1,64}$/;

/** Reuses a caller's x-request-id (from a proxy) when it looks sane, else a fresh uuid. */
function requestId(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/** The whole server as one plugin tree: used by server.ts and by every test. */
export async function buildApp({
  config,
  database,
  logger,
  jobs,
  procedures = ALL_PROCEDURES,
  dataLogActions: moreDataLogActions,
}: BuildAppOptions): Promise<FastifyInstance> {
  const { trustProxy } = config;
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    genReqId: requestId,
    // X-Forwarded-* only from the proxies TRUST_PROXY names; anyone else could fake their address or https.
    // (A hop count as the function Fastify would make of it: its types leave the number form out.)
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    // JSON bodies (plugins/json-body.ts); multipart uploads set their own limits (routes/excel).
    bodyLimit: MAX_JSON_BODY_BYTES,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The jobs, each given what it works with (jobs/dependencies.ts): the database, the settings, the
  // queues on this runner and the procedures the runs and the chain know.
  const procedureList = procedureTable(procedures);
  const jobRunner = createJobRunner(database, {
    log: app.log,
    jobs: [...ALL_JOBS, ...(jobs?.define ?? [])],
    dependencies: (runner) => jobDependencies(runner, { config, database, procedures: procedureList }),
    ...(jobs?.pollingIntervalSeconds !== undefined ? { pollingIntervalSeconds: jobs.pollingIntervalSeconds } : {}),
  });
  app.decorate('jobs', jobRunner);
  // Running handlers finish (up to 10 s) before the database closes after the app.
  app.addHook('onClose', () => jobRunner.stop());

  const identity = config.embeddedIdentityProvider ? await createIdentity(config, database) : null;
  app.decorate('identity', identity);

  app.addHook('onRequest', async (request, reply) => {
    // On the raw response, so it is also present on responses the identity provider writes itself.
    reply.raw.setHeader('x-request-id', request.id);
  });

  const issuerOrigin = new URL(config.oidcIssuer).origin;
  const formTargets = [...new Set([...(identity?.clientOrigins ?? []), issuerOrigin])];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'", LOGOUT_SCRIPT_CSP],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", issuerOrigin],
        // MapLibre runs its workers from blob: URLs.
        workerSrc: ["'self'", 'blob:'],
        childSrc: ["'self'", 'blob:'],
        // Silent token renewal loads the issuer in a hidden iframe.
        frameSrc: ["'self'", issuerOrigin],
        frameAncestors: ["'self'"],
        // The login and logout forms redirect on to the client (also the Vite dev origin).
        formAction: ["'self'", ...formTargets],
      },
    },
    // Only when users reach us over https: HSTS on http://localhost would pin a developer's browser.
    hsts: config.publicUrl.startsWith('https://') ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
  });

  // API answers hold area data of one signed-in user: never kept by a browser or shared cache.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  await app.register(errorsPlugin);
  await app.register(jsonBodyPlugin);
  const verifyToken = createTokenVerifier({
    issuer: config.oidcIssuer,
    audience: config.oidcAudience,
    keys: identity?.keys ?? remoteIssuerKeys(config.oidcIssuer),
  });
  await app.register(accessPlugin, { database, verifyToken });
  await app.register(docsPlugin);

  // Asks the database, so a supervisor (or load balancer) sees a server that cannot answer as unhealthy.
  app.get(
    '/health',
    {
      // Probes (a supervisor's, the start's own ready check) ask every few seconds: their requests are
      // not logged at info, so `npm start` ends on its ready line and the log on what people did.
      logLevel: 'warn',
      config: { access: { public: true } },
      schema: {
        hide: true,
        response: { 200: z.object({ status: z.literal('ok') }), 503: z.object({ status: z.literal('unavailable') }) },
      },
    },
    async (_request, reply) => {
      if (await databaseHealthy(database)) return { status: 'ok' as const };
      return reply.code(503).send({ status: 'unavailable' as const });
    },
  );

  app.get(
    '/config.json',
    { config: { access: { public: true } }, schema: { hide: true, response: { 200: clientConfigSchema } } },
    async (_request, reply): Promise<ClientConfig> => {
      reply.header('cache-control', 'no-cache');
      return {
        apiBase: '/api',
        authority: config.oidcIssuer,
        clientId: config.oidcClientId,
        embeddedIdentityProvider: config.embeddedIdentityProvider,
      };
    },
  );

  if (identity) await app.register(identityPlugin, { identity, database });
  // Every route file registers declared calls (packages/contracts/src/calls) whose paths are complete
  // below /api (routes/register-call.ts), so each is registered under the same prefix.
  await app.register(userRoutes, { prefix: API_PREFIX, database });
  await app.register(domainRoutes, { prefix: API_PREFIX, database });
  // Beside domainRoutes rather than inside it, so routes/domain/index.ts stays one list per concern.
  await app.register(userDomainRoutes, {
    prefix: API_PREFIX,
    database,
    directory: config.keycloakAdmin ? keycloakDirectory(config.keycloakAdmin) : undefined,
  });
  await app.register(organisationExtraRoutes, { prefix: API_PREFIX, database });
  await app.register(jobRoutes, { prefix: API_PREFIX });
  await app.register(excelRoutes, { prefix: API_PREFIX, database, maxFileBytes: config.excelImportMaxFileBytes });
  const importQueue = jobImportQueue(jobRunner);
  // metered-energy-aggregation's files leave over the OUT routes in their own job, queued after a
  // run's chunk committed or by a re-export.
  registerAggregationDelivery(deliveryQueue(jobRunner));
  // What the data log's re-import, re-export and re-order run, per message type (a test adds its own).
  const actions = dataLogActions(
    {
      reimport: [intakeReimporters(importQueue)],
      reexport: [AGGREGATION_REEXPORTERS],
      reorder: [reportReorderers(reportQueue(jobRunner))],
    },
    moreDataLogActions,
  );
  const sftpIntake = sftpIntakeSettings(config, database, importQueue);
  await app.register(timeSeriesRoutes, {
    prefix: API_PREFIX,
    maxFileBytes: config.timeSeriesImportMaxFileBytes,
    queue: importQueue,
    sftpIntake,
  });
  await app.register(sftpIntegrationRoutes, {
    prefix: API_PREFIX,
    database,
    credentialsKey: config.interfaceCredentialsKey,
    allowedHosts: config.interfaceAllowedHosts,
  });
  await app.register(eventLogRoutes, { prefix: API_PREFIX, actions });
  await app.register(setToErrorRoutes, { prefix: API_PREFIX });
  // Processing (issue 9): runs, procedure results, processing events, the list of processes.
  await app.register(processingRoutes, { prefix: API_PREFIX });
  await app.register(delayedTaskRoutes, { prefix: API_PREFIX });
  await app.register(procedureResultRoutes, { prefix: API_PREFIX });
  await app.register(processingEventRoutes, { prefix: API_PREFIX });
  await app.register(processRoutes, { prefix: API_PREFIX });
  // Dead letter queues and the task / procedure-result write calls (issue 9 items 1 and 3).
  await app.register(deadLetterQueueRoutes, { prefix: API_PREFIX });
  await app.register(procedureTaskRoutes, { prefix: API_PREFIX });
  await app.register(reportRoutes, { prefix: API_PREFIX });
  await app.register(reportScheduleRoutes, { prefix: API_PREFIX, credentialsKey: config.interfaceCredentialsKey });
  await app.register(processingConfigRoutes, { prefix: API_PREFIX, database });
  await app.register(statisticsRoutes, { prefix: API_PREFIX });
  // Settlement and verification reads (issue 10).
  await app.register(settlementRoutes, { prefix: API_PREFIX });
  await app.register(parameterOverviewRoutes, { prefix: API_PREFIX });
  await app.register(masterDataRoutes, { prefix: API_PREFIX, database });
  // The e-mails kept instead of sent (SMTP_URL unset), for the administrator (issue 20 item 5).
  await app.register(administrationRoutes, {
    prefix: API_PREFIX,
    database,
    sentMailDir: config.sentMailDir,
    nodeName: config.nodeName,
  });
  await app.register(webPlugin, { webDist: config.webDist });

  return app;
}
