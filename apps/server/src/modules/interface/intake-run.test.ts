import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataLogEntry, DataLogPage } from '@railwatt/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../config.js';
import { tenantExecutor } from '../../db/tenant.js';
import { cebdXml } from '../../formats/cebd/generate.js';
import { SFTP_INTAKE_ACTOR, sftpIntakeJob } from '../../jobs/sftp-intake.js';
import { timeSeriesImportJob } from '../../jobs/timeseries-import.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { serviceContext } from '../../test/context.js';
import { consumptionPointCpids } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';
import { freePort, startOpenSshServer, type OpenSshServer } from '../../test/sftp-servers.js';
import { requireTool } from '../../test/tools.js';
import { PART_BYTES } from '../datalog/file-store.js';
import type { ImportQueue } from '../timeseries/accept.js';
import { parseAllowedHosts } from './allowed-hosts.js';
import { runSftpIntake, type SftpIntakeDeps } from './intake-run.js';

const ADMIN = 'erex-administrator';
const RESPONSIBLE = 'settlement-area-responsible';
const CREATE_ROUTE = '/api/sftpintegration/interface-configuration/create-route';

/** The automatic intake's dependencies as app.ts wires them, on the test app's database. */
const intakeDeps = (
  t: TestApp,
  given: Pick<SftpIntakeDeps, 'queue' | 'maxFileBytes'> & Partial<SftpIntakeDeps>,
): SftpIntakeDeps => ({
  database: t.database,
  credentialsKey: testConfig().interfaceCredentialsKey,
  allowedHosts: undefined,
  log: pino({ level: 'silent' }),
  ...given,
});

/**
 * Automatic intake end to end (issue 8 item 5): routes made through the API, files on a real
 * OpenSSH server (/usr/sbin/sshd on a local port), the `sftp-intake` job on pg-boss, the import jobs
 * it queues, the data log of each area, the values stored, and the files moved to the backup path.
 */
const hasSshd = requireTool('sshd', 'the automatic SFTP intake against OpenSSH');
describe.skipIf(!hasSshd)('automatic SFTP intake from the IN routes', () => {
  let t: TestApp;
  let server: OpenSshServer;
  let cpid = '';
  const dir = (...parts: string[]) => join(server.path, ...parts);

  const createRoute = async (over: Record<string, unknown>) => {
    const res = await t.callAs(
      ADMIN,
      {
        method: 'POST',
        url: CREATE_ROUTE,
        payload: {
          description: 'CEBD from the data collecting services',
          interfaceType: 'CEBD',
          direction: 'IN',
          folder: null,
          serverType: 'INTERNAL',
          hostname: server.hostname,
          port: server.port,
          username: server.username,
          enabled: true,
          changeComment: '',
          subFolders: ['norway', 'belgium'],
          credentials: { privateKey: server.key.privateKey, passphrase: '' },
          ...over,
        },
      },
      'administration',
    );
    expect(res.statusCode, res.body).toBe(200);
  };

  /** The sftp-intake job queued as its schedule queues it: the system in the Administration area. */
  const runIntakeJob = async () => {
    const administration = t.areaUuid('administration');
    const ctx = serviceContext(
      tenantExecutor(t.database, administration),
      administration,
      { username: SFTP_INTAKE_ACTOR, roles: [], areaKind: 'administration' },
      { name: 'Administration', timeZone: 'UTC' },
    );
    const id = await t.app.jobs.enqueue(ctx, sftpIntakeJob, {});
    return waitForRun(t.database, id, { until: ['success', 'failure', 'dead'], timeoutMs: 50_000 });
  };

  /** The import runs the intake queued for these data-log entries, once they have finished. */
  const importRuns = async (dataLogIds: number[]) => {
    const queued = await t.allAreas.query<{ id: string; dataLogId: number }>(
      `SELECT id, data_log_id::int AS "dataLogId" FROM job_run WHERE name = $1 AND data_log_id = ANY($2::bigint[])`,
      [timeSeriesImportJob.name, dataLogIds],
    );
    return Promise.all(
      queued.map(async (r) => ({
        dataLogId: r.dataLogId,
        run: await waitForRun(t.database, r.id, { until: ['success', 'failure', 'dead'] }),
      })),
    );
  };

  const dataLog = async (kind: 'norway' | 'belgium'): Promise<DataLogEntry[]> => {
    const res = await t.callAs(RESPONSIBLE, { method: 'GET', url: '/api/eventlog/datalog?size=1000' }, kind);
    expect(res.statusCode).toBe(200);
    return res.json<DataLogPage>().content;
  };

  const cebdFile = () =>
    [
      ...cebdXml({
        seed: 11,
        points: [
          {
            cpid,
            route: [
              { lat: 59.91, lon: 10.75 },
              { lat: 60.39, lon: 5.32 },
            ],
            start: new Date(Date.now() - 86_400_000).toISOString().slice(0, 11) + '00:00:00Z',
            periods: 6,
          },
        ],
      }),
    ].join('');

  beforeAll(async () => {
    server = await startOpenSshServer();
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure'], jobs: {} });
    [cpid] = (await consumptionPointCpids(t.allAreas, t.areaUuid('norway'), 1)) as [string];
    for (const folder of ['in/norway', 'in/belgium', 'disabled/norway', 'out/norway']) {
      mkdirSync(dir(folder), { recursive: true });
    }
    await createRoute({ routeId: 'cebd-in', path: dir('in'), backupPath: dir('backup') });
    await createRoute({
      routeId: 'cebd-in-disabled',
      path: dir('disabled'),
      backupPath: dir('backup-disabled'),
      enabled: false,
    });
    await createRoute({
      routeId: 'cebd-out',
      direction: 'OUT',
      path: dir('out'),
      backupPath: null,
    });
    // Nothing listens on this port: the route cannot be read, the others must still be.
    await createRoute({ routeId: 'cebd-in-unreachable', port: await freePort(), path: dir('in'), backupPath: null });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  it('fetches the files of an enabled IN route, imports them per area, logs them with the route and moves them to the backup path', async () => {
    const cebd = cebdFile();
    writeFileSync(dir('in/norway/cebd-day.xml'), cebd);
    writeFileSync(dir('in/belgium/broken.xml'), '<CEBDFile><not-closed');
    writeFileSync(dir('disabled/norway/waiting.xml'), cebd);
    writeFileSync(dir('out/norway/outgoing.xml'), cebd);

    const run = await runIntakeJob();
    // One route could not be read; that is reported, and the run still did the others' work.
    expect(run).toMatchObject({ status: 'success', name: sftpIntakeJob.name, tenant: t.areaUuid('administration') });
    expect(run.message).toMatch(/^Fetched 2 files from 2 routes; could not read cebd-in-unreachable \(.+\)$/);

    const norway = (await dataLog('norway')).filter((e) => e.destination === 'cebd-in');
    const belgium = (await dataLog('belgium')).filter((e) => e.destination === 'cebd-in');
    expect(norway).toHaveLength(1);
    expect(belgium).toHaveLength(1);
    const imports = await importRuns([norway[0]!.id, belgium[0]!.id]);
    expect(imports.find((i) => i.dataLogId === norway[0]!.id)?.run.status).toBe('success');
    expect(imports.find((i) => i.dataLogId === belgium[0]!.id)?.run.status).toBe('failure');

    const [ok] = (await dataLog('norway')).filter((e) => e.destination === 'cebd-in');
    expect(ok).toMatchObject({
      messageType: 'CEBD_IMPORT',
      messageStatus: 'OK',
      fileName: 'cebd-day.xml',
      username: 'sftp:cebd-in',
      destination: 'cebd-in',
    });
    expect(ok!.messageLogTimeSeries.map((s) => [s.timeSeriesType, s.entityIdentifier, s.valuesCount]).sort()).toEqual([
      ['cebd_active_energy_consumed', cpid, 6],
      ['cebd_active_energy_regenerated', cpid, 6],
      ['cebd_reactive_energy_consumed', cpid, 6],
      ['cebd_reactive_energy_regenerated', cpid, 6],
    ]);
    const [rejected] = (await dataLog('belgium')).filter((e) => e.destination === 'cebd-in');
    expect(rejected).toMatchObject({
      messageStatus: 'REJECTED',
      fileName: 'broken.xml',
      username: 'sftp:cebd-in',
      destination: 'cebd-in',
    });

    // The values are stored in Norway, from this file, and nothing in Belgium.
    const stored = await t.allAreas.query<{ tenant: string; records: number }>(
      `SELECT tenant, count(*)::int AS records FROM cebd_record
        WHERE data_log_id = ANY($1::bigint[]) GROUP BY 1`,
      [[ok!.id, rejected!.id]],
    );
    expect(stored).toEqual([{ tenant: t.areaUuid('norway'), records: 6 }]);

    // Moved to <backupPath>/<area>/ with its bytes; nothing left in the inbox.
    expect(readdirSync(dir('in/norway'))).toEqual([]);
    expect(readdirSync(dir('in/belgium'))).toEqual([]);
    expect(readFileSync(dir('backup/norway/cebd-day.xml'), 'utf8')).toBe(cebd);
    expect(readdirSync(dir('backup/belgium'))).toEqual(['broken.xml']);
    // The disabled route and the OUT route are not read.
    expect(readdirSync(dir('disabled/norway'))).toEqual(['waiting.xml']);
    expect(existsSync(dir('backup-disabled'))).toBe(false);
    expect(readdirSync(dir('out/norway'))).toEqual(['outgoing.xml']);
    expect((await dataLog('norway')).some((e) => e.destination !== null && e.destination !== 'cebd-in')).toBe(false);

    // A second run finds nothing new.
    const again = await runIntakeJob();
    expect(again.message).toMatch(/^Fetched 0 files from 2 routes/);
    expect((await dataLog('norway')).filter((e) => e.destination === 'cebd-in')).toHaveLength(1);
  }, 60_000);

  it('ends a run in which no route could be read as failed, naming the routes and why', async () => {
    const enable = async (enabled: boolean) => {
      const res = await t.callAs(
        ADMIN,
        {
          method: 'POST',
          url: '/api/sftpintegration/interface-configuration/enable-disable',
          payload: { routeIds: ['cebd-in'], enabled },
        },
        'administration',
      );
      expect(res.statusCode, res.body).toBe(200);
    };
    await enable(false);
    try {
      const run = await runIntakeJob();
      expect(run.status).toBe('failure');
      expect(run.message).toMatch(/^Fetched 0 files from 1 routes; could not read cebd-in-unreachable \(.+\)$/);
    } finally {
      await enable(true);
    }
  });

  it('leaves a file whose folder names no area on the server, and says why', async () => {
    const queue: ImportQueue = {
      enqueueImport: async () => {
        throw new Error('nothing should be queued');
      },
    };
    await createRoute({
      routeId: 'cebd-in-nowhere',
      path: dir('nowhere'),
      backupPath: dir('backup-nowhere'),
      subFolders: ['atlantis'],
    });
    mkdirSync(dir('nowhere/atlantis'), { recursive: true });
    writeFileSync(dir('nowhere/atlantis/lost.xml'), '<CEBDFile/>');
    const summary = await runSftpIntake(
      intakeDeps(t, {
        queue,
        maxFileBytes: 1_000_000,
      }),
    );
    const nowhere = summary.routes.find((r) => r.routeId === 'cebd-in-nowhere')!;
    expect(nowhere.outcome.skipped).toEqual([
      { remotePath: dir('nowhere/atlantis/lost.xml'), reason: 'The folder atlantis names no area' },
    ]);
    expect(readdirSync(dir('nowhere/atlantis'))).toEqual(['lost.xml']);
  });

  it('pins the host key on the first fetch, and fetches nothing from a server with another key', async () => {
    const hostKey = async (routeId: string) =>
      (
        await t.allAreas.query<{ key: string | null }>(
          `SELECT host_key_fingerprint AS key FROM interface_route WHERE route_id = $1`,
          [routeId],
        )
      )[0]!.key;
    // cebd-in was saved without a key: the first run pinned the one sshd presented.
    expect(await hostKey('cebd-in')).toBe(server.hostKeyFingerprint);
    const pinned = `SHA256:${'C'.repeat(43)}`;
    await createRoute({
      routeId: 'cebd-in-impostor',
      path: dir('impostor'),
      backupPath: null,
      subFolders: ['norway'],
      hostKeyFingerprint: pinned,
    });
    mkdirSync(dir('impostor/norway'), { recursive: true });
    writeFileSync(dir('impostor/norway/cebd-x.xml'), cebdFile());
    const summary = await runSftpIntake(
      intakeDeps(t, {
        queue: { enqueueImport: () => Promise.reject(new Error('nothing should be queued')) },
        maxFileBytes: 1_000_000,
      }),
      { interfaceTypes: ['CEBD'] },
    );
    const impostor = summary.routes.find((r) => r.routeId === 'cebd-in-impostor')!;
    expect(impostor.outcome).toMatchObject({ fetched: 0 });
    expect(impostor.outcome.error).toMatch(
      `presented the host key ${server.hostKeyFingerprint}, not the route's ${pinned}`,
    );
    expect(readdirSync(dir('impostor/norway'))).toEqual(['cebd-x.xml']);
    expect(await hostKey('cebd-in-impostor')).toBe(pinned);
    // Disabled again, so the later runs of this file read only the routes they expect.
    const res = await t.callAs(
      ADMIN,
      {
        method: 'POST',
        url: '/api/sftpintegration/interface-configuration/enable-disable',
        payload: { routeIds: ['cebd-in-impostor'], enabled: false },
      },
      'administration',
    );
    expect(res.statusCode, res.body).toBe(200);
  });

  it('reads no route whose host INTERFACE_ALLOWED_HOSTS no longer admits: each says so, its files stay', async () => {
    // The routes were saved without a list; the platform now allows other hosts only.
    writeFileSync(dir('in/norway/cebd-held.xml'), cebdFile());
    try {
      const summary = await runSftpIntake(
        intakeDeps(t, {
          allowedHosts: parseAllowedHosts('*.example.org, 192.0.2.0/24'),
          queue: { enqueueImport: () => Promise.reject(new Error('nothing should be queued')) },
          maxFileBytes: 1_000_000,
        }),
        { interfaceTypes: ['CEBD'] },
      );
      expect(summary.routes.length).toBeGreaterThan(0);
      for (const { routeId, outcome } of summary.routes) {
        expect({ routeId, fetched: outcome.fetched }).toEqual({ routeId, fetched: 0 });
        expect(outcome.error).toMatch(/^The host 127\.0\.0\.1:\d+ is not among the hosts this platform allows/);
      }
      expect(summary.dataLogIds).toEqual([]);
      expect(readdirSync(dir('in/norway'))).toContain('cebd-held.xml');
    } finally {
      rmSync(dir('in/norway/cebd-held.xml'), { force: true });
    }
  });

  it('fetches at most maxFiles files in a run; the rest wait on the server for the next', async () => {
    writeFileSync(dir('in/norway/cebd-a.xml'), cebdFile());
    writeFileSync(dir('in/norway/cebd-b.xml'), cebdFile());
    const deps = intakeDeps(t, {
      // As app.ts queues them.
      queue: {
        enqueueImport: (ctx, input) =>
          t.app.jobs.enqueue(ctx, timeSeriesImportJob, input, { dataLogId: input.dataLogId }),
      } satisfies ImportQueue,
      maxFileBytes: 1_000_000,
    });
    const first = await runSftpIntake(deps, { interfaceTypes: ['CEBD'], maxFiles: 1 });
    expect(first.dataLogIds).toHaveLength(1);
    expect(readdirSync(dir('in/norway'))).toEqual(['cebd-b.xml']);
    const second = await runSftpIntake(deps, { interfaceTypes: ['CEBD'], maxFiles: 1 });
    expect(second.dataLogIds).toHaveLength(1);
    expect(readdirSync(dir('in/norway'))).toEqual([]);
    const runs = await importRuns([...first.dataLogIds, ...second.dataLogIds]);
    expect(runs.map((r) => r.run.status)).toEqual(['success', 'success']);
  });

  it('fetches a file once when two runs meet on a route (the schedule and import-prices)', async () => {
    const files = ['cebd-once-1.xml', 'cebd-once-2.xml', 'cebd-once-3.xml', 'cebd-once-4.xml'];
    for (const name of files) writeFileSync(dir('in/norway', name), cebdFile());
    const deps = intakeDeps(t, {
      queue: {
        enqueueImport: (ctx, input) =>
          t.app.jobs.enqueue(ctx, timeSeriesImportJob, input, { dataLogId: input.dataLogId }),
      } satisfies ImportQueue,
      maxFileBytes: 1_000_000,
    });
    const both = await Promise.all([
      runSftpIntake(deps, { interfaceTypes: ['CEBD'] }),
      runSftpIntake(deps, { interfaceTypes: ['CEBD'], areas: ['norway'] }),
    ]);
    const ids = both.flatMap((s) => s.dataLogIds);
    expect(both.flatMap((s) => s.routes.filter((r) => r.routeId === 'cebd-in' && r.outcome.error))).toEqual([]);
    expect(ids).toHaveLength(files.length);
    expect(readdirSync(dir('in/norway'))).toEqual([]);
    expect((await importRuns(ids)).map((r) => r.run.status)).toEqual(files.map(() => 'success'));
  });

  it('streams a file of several MB from the server into the data log in parts, byte for byte, and imports it', async () => {
    const cpids = await consumptionPointCpids(t.allAreas, t.areaUuid('norway'), 12);
    const start = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 11) + '00:00:00Z';
    const route = [
      { lat: 59.91, lon: 10.75 },
      { lat: 60.39, lon: 5.32 },
    ];
    // Five days of 5-minute periods for twelve points: about 3.5 MB, four parts.
    const cebd = Buffer.from(
      [...cebdXml({ seed: 17, points: cpids.map((cpid) => ({ cpid, route, start, periods: 5 * 288 })) })].join(''),
    );
    expect(cebd.length).toBeGreaterThan(3 * PART_BYTES);
    writeFileSync(dir('in/norway/cebd-large.xml'), cebd);
    const summary = await runSftpIntake(
      intakeDeps(t, {
        queue: {
          enqueueImport: (ctx, input) =>
            t.app.jobs.enqueue(ctx, timeSeriesImportJob, input, { dataLogId: input.dataLogId }),
        },
        maxFileBytes: testConfig().timeSeriesImportMaxFileBytes,
      }),
      { interfaceTypes: ['CEBD'], areas: ['norway'] },
    );
    expect(summary.dataLogIds).toHaveLength(1);
    const [id] = summary.dataLogIds as [number];
    const [stored] = await t.allAreas.query<{ size: number; parts: number }>(
      `SELECT d.file_size::int AS size, (SELECT count(*)::int FROM data_log_part p WHERE p.data_log_id = d.id) AS parts
         FROM data_log d WHERE d.id = $1`,
      [id],
    );
    expect(stored).toEqual({ size: cebd.length, parts: Math.ceil(cebd.length / PART_BYTES) });
    const download = await t.callAs(
      RESPONSIBLE,
      { method: 'POST', url: '/api/eventlog/datalog/download', payload: { id, messageType: 'CEBD_IMPORT' } },
      'norway',
    );
    expect(download.statusCode, download.body.slice(0, 200)).toBe(200);
    expect(download.rawPayload.equals(cebd)).toBe(true);
    expect(readFileSync(dir('backup/norway/cebd-large.xml')).equals(cebd)).toBe(true);
    const [imported] = await importRuns([id]);
    expect(imported?.run.status).toBe('success');
    const [entry] = (await dataLog('norway')).filter((e) => e.id === id);
    expect(entry?.messageStatus).toBe('OK');
    expect(entry!.messageLogTimeSeries.every((s) => s.valuesCount === 5 * 288)).toBe(true);
    expect(entry!.messageLogTimeSeries).toHaveLength(4 * cpids.length);
  }, 120_000);

  it('leaves a file larger than the limit on the server with nothing stored, also one that grows past it while read', async () => {
    const limit = Math.floor(1.5 * PART_BYTES);
    writeFileSync(dir('in/norway/cebd-a-small.xml'), cebdFile());
    writeFileSync(dir('in/norway/cebd-b-growing.xml'), cebdFile());
    writeFileSync(dir('in/norway/cebd-c-large.xml'), Buffer.alloc(limit + 1, ' '));
    let grown = false;
    try {
      const summary = await runSftpIntake(
        intakeDeps(t, {
          queue: {
            enqueueImport: (ctx, input) => {
              // Listed small; by the time it is read, its writer has made it twice the limit, so
              // one part is stored before the limit is crossed (and must be removed again).
              if (!grown) writeFileSync(dir('in/norway/cebd-b-growing.xml'), Buffer.alloc(2 * limit, ' '));
              grown = true;
              return t.app.jobs.enqueue(ctx, timeSeriesImportJob, input, { dataLogId: input.dataLogId });
            },
          },
          maxFileBytes: limit,
        }),
        { interfaceTypes: ['CEBD'], areas: ['norway'] },
      );
      const cebdIn = summary.routes.find((r) => r.routeId === 'cebd-in')!.outcome;
      expect(cebdIn.fetched).toBe(1);
      expect(cebdIn.skipped).toEqual([
        { remotePath: dir('in/norway/cebd-b-growing.xml'), reason: `larger than ${limit} bytes` },
        { remotePath: dir('in/norway/cebd-c-large.xml'), reason: `larger than ${limit} bytes` },
      ]);
      expect(readdirSync(dir('in/norway')).sort()).toEqual(['cebd-b-growing.xml', 'cebd-c-large.xml']);
      // The growing file's entry says why and holds no bytes; the one listed too large has none.
      const entries = await t.allAreas.query<{ name: string; status: string; text: string; size: number | null }>(
        `SELECT file_name AS name, message_status AS status, message_text AS text, file_size AS size
           FROM data_log WHERE destination = 'cebd-in' AND file_name IN ('cebd-b-growing.xml', 'cebd-c-large.xml')`,
      );
      expect(entries).toEqual([
        {
          name: 'cebd-b-growing.xml',
          status: 'REJECTED',
          text: `The file is larger than ${limit} bytes; it stays on the server`,
          size: null,
        },
      ]);
      const parts = await t.allAreas.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM data_log_part p JOIN data_log d ON d.id = p.data_log_id
          WHERE d.file_name IN ('cebd-b-growing.xml', 'cebd-c-large.xml')`,
      );
      expect(parts).toEqual([{ n: 0 }]);
      expect((await importRuns(summary.dataLogIds)).map((r) => r.run.status)).toEqual(['success']);
    } finally {
      rmSync(dir('in/norway/cebd-b-growing.xml'), { force: true });
      rmSync(dir('in/norway/cebd-c-large.xml'), { force: true });
    }
  }, 180_000);
});
