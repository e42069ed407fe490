import type { AreaKind } from '@railwatt/contracts';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildAppOptions } from '../app.js';
import { testConfig, type AppConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { allAreasDatabase } from '../db/tenant.js';
import type { MintOptions } from '../identity/provider.js';
import type { JobDefinition } from '../modules/jobs/define-job.js';
import type { ProcedureDefinition } from '../modules/processing/define-procedure.js';
import { areaUuid } from '../seed/areas.js';
import { multipartBody } from '../modules/excel/fixtures.js';
import { openTestDatabase } from './database.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /**
   * The database across areas (allAreasDatabase): for a test that inspects stored rows, since the
   * app's role sees area data only inside a transaction that names the area.
   */
  allAreas: Database;
  /** A bearer access token for a seeded user, minted exactly as the embedded provider issues it. */
  tokenFor(username: string, options?: MintOptions): Promise<string>;
  /** Headers for a call as `username` in the area of `kind`: authorization + current-tenant-id. */
  headersFor(username: string, kind?: AreaKind, options?: MintOptions): Promise<Record<string, string>>;
  /** app.inject as `username` in the area of `kind` (default norway); the options' own headers win. */
  callAs(username: string, options: InjectOptions, kind?: AreaKind): Promise<LightMyRequestResponse>;
  /** POSTs `files` to `url` as a multipart upload (field `files`) as `username`, like the upload dialog. */
  uploadAs(
    username: string,
    url: string,
    files: readonly { fileName: string; bytes: Buffer | string; contentType?: string }[],
    options?: { headers?: Record<string, string>; kind?: AreaKind },
  ): Promise<LightMyRequestResponse>;
  areaUuid(kind: AreaKind): string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<AppConfig>;
  /** Seeders to run (default: areas and users; add e.g. 'fleet' for a feature's demo data). */
  seeders?: readonly string[];
  /** Runs before app.ready(): register test-only routes here. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * Keep the owning (superuser) role instead of switching to railwatt_app as the server does: for
   * the rare test that needs DDL or reads the tables past row-level security. Default false.
   */
  asOwner?: boolean;
  /**
   * Start the job runner (pg-boss) with the declared jobs and `define` (test jobs), polling every
   * `pollingIntervalSeconds` (default 0.5). Without it the runner is built but not started: most
   * tests queue nothing, and start faster. Wait for a run with test/jobs.ts waitForRun.
   */
  jobs?: { define?: readonly JobDefinition[]; pollingIntervalSeconds?: number };
  /** The procedures the app runs (default ALL_PROCEDURES): a test passes test/procedures.ts withProcedures(...). */
  procedures?: readonly ProcedureDefinition[];
  /** The test's own data-log actions, in place of the app's for the types they name (BuildAppOptions). */
  dataLogActions?: BuildAppOptions['dataLogActions'];
}

/** The whole app on a fresh test database (PGlite, or TEST_DATABASE_URL) with areas and demo users. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await openTestDatabase({ seeders: options.seeders ?? ['areas', 'users'] });
  try {
    if (!options.asOwner) await database.useAppRole();
    const app = await buildApp({
      config: testConfig(options.config),
      database,
      logger: false,
      jobs: { define: options.jobs?.define ?? [], pollingIntervalSeconds: options.jobs?.pollingIntervalSeconds ?? 0.5 },
      ...(options.procedures ? { procedures: options.procedures } : {}),
      ...(options.dataLogActions ? { dataLogActions: options.dataLogActions } : {}),
    });
    if (options.jobs) await app.jobs.start();
    await options.beforeReady?.(app);
    await app.ready();
    const tokenFor = (username: string, mint?: MintOptions) => {
      if (!app.identity) throw new Error('tokenFor needs the embedded identity provider');
      return app.identity.mintAccessToken(username, mint);
    };
    const headersFor = async (username: string, kind: AreaKind = 'norway', mint?: MintOptions) => ({
      authorization: `Bearer ${await tokenFor(username, mint)}`,
      'current-tenant-id': areaUuid(kind),
    });
    const callAs: TestApp['callAs'] = async (username, options, kind = 'norway') =>
      app.inject({
        ...options,
        headers: { ...(await headersFor(username, kind)), ...(options.headers ?? {}) },
      });
    return {
      app,
      database,
      allAreas: allAreasDatabase(database),
      tokenFor,
      headersFor,
      callAs,
      async uploadAs(username, url, files, { headers = {}, kind } = {}) {
        const body = multipartBody(
          files.map((f) => ({ ...f, bytes: typeof f.bytes === 'string' ? Buffer.from(f.bytes) : f.bytes })),
        );
        return callAs(
          username,
          { method: 'POST', url, headers: { ...body.headers, ...headers }, payload: body.payload },
          kind,
        );
      },
      areaUuid,
      async close() {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
