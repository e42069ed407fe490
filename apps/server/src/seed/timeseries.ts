import type { CountryAreaName } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import type { ServiceContext } from '../context.js';
import type { Database } from '../db/client.js';
import { tenantExecutor } from '../db/tenant.js';
import { INTAKE_FORMATS } from '../formats/timeseries/registry.js';
import { startFile } from '../modules/datalog/datalog-service.js';
import { rows } from '../modules/domain/sql.js';
import { FORMAT_MESSAGE_TYPES } from '../modules/timeseries/accept.js';
import { importStoredFile } from '../modules/timeseries/import-file.js';
import { valueBatchFor } from '../modules/timeseries/store.js';
import { storeTrainRuns } from '../modules/trainrun/service.js';
import { SEED_AREAS } from './areas.js';
import { seedUuid } from './entity-rows.js';
import {
  DEMO_SENDERS,
  DEMO_TIMESERIES_COUNTRIES,
  demoIntakeFiles,
  demoRefusedFileName,
  type DemoIntakeOptions,
} from './timeseries-demo.js';

/**
 * Seeder: the time-series demo of seed/timeseries-demo.ts for Norway and Belgium, brought in the way
 * a sender's files come in: each file becomes a data-log entry (RUNNING, with its bytes, as the
 * sender's user and the format's message type) and is imported by importStoredFile in this process
 * (the seeder runs before the server listens, so not through pg-boss). The data log then shows OK
 * entries with their per-series summaries, one REJECTED entry per country, and every file can be
 * downloaded or re-imported. The month is fixed and older than the CEBD limit of days since
 * observation, so the seeder, and only it, imports without that limit.
 *
 * Idempotent and resumable: a file whose name the area's data log already holds with an outcome
 * (OK or REJECTED, from a demo user) is skipped; one a stopped start left RUNNING (FAILED by
 * failInterruptedFiles) is imported again, so a second start does nothing and a start cut short goes on where it stopped. A
 * country without its demo master data (fleet, infrastructure, administration) is left out.
 */

export interface SeedTimeSeriesOptions extends Omit<DemoIntakeOptions, 'country'> {
  countries?: readonly CountryAreaName[];
}

export interface SeededTimeSeries {
  country: CountryAreaName;
  imported: number;
  skipped: number;
  rejected: string[];
}

const silent = pino({ level: 'silent' });

export async function seedTimeSeriesData(
  database: Database,
  options: SeedTimeSeriesOptions = {},
): Promise<SeededTimeSeries[]> {
  const { countries = DEMO_TIMESERIES_COUNTRIES, ...demo } = options;
  const outcome: SeededTimeSeries[] = [];
  for (const country of countries) {
    const area = SEED_AREAS.find((a) => a.kind === country)!;
    const db = tenantExecutor(database, area.uuid);
    // The master data the files name: the administration's marker (it comes last) and the fleet's.
    const markers = [seedUuid(`${country}:settlementarea`), seedUuid(`${country}:org:exchange-a`)];
    const present = await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM entity WHERE uuid = ANY(${sql.param(markers)}::uuid[])`,
    );
    const administration = await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM entity_latest WHERE tenant = ${area.uuid}::uuid AND type = 'trainprofile'`,
    );
    if (present[0]?.n !== markers.length || !administration[0]?.n) continue;
    const done = new Set(
      (
        await rows<{ file_name: string }>(
          db,
          sql`SELECT file_name FROM data_log
               WHERE tenant = ${area.uuid}::uuid AND username = ANY(${sql.param(Object.values(DEMO_SENDERS))}::text[])
                 AND file_name IS NOT NULL AND message_status IN ('OK', 'REJECTED')`,
        )
      ).map((r) => r.file_name),
    );
    const result: SeededTimeSeries = { country, imported: 0, skipped: 0, rejected: [] };
    // The refused file comes last: when it is in the log, the country is complete (no need to generate).
    if (done.has(demoRefusedFileName(country, demo.month))) {
      outcome.push(result);
      continue;
    }
    for (const file of demoIntakeFiles({ country, ...demo })) {
      if (done.has(file.fileName)) {
        result.skipped += 1;
        continue;
      }
      const ctx: ServiceContext = {
        db,
        tenant: { uuid: area.uuid, name: area.name, kind: area.kind, timeZone: area.timeZone },
        actor: { username: file.username, roles: [], areaKind: area.kind },
        log: silent,
      };
      const id = await startFile(db, {
        tenant: area.uuid,
        username: file.username,
        messageType: FORMAT_MESSAGE_TYPES[file.format],
        fileName: file.fileName,
        bytes: file.bytes,
        contentType: file.contentType,
      });
      const imported = await importStoredFile(ctx, id, INTAKE_FORMATS[file.format]!, {
        storeTrainRuns,
        maxDaysSinceObservation: null,
        valueBatch: valueBatchFor(database.kind),
      });
      result.imported += 1;
      if (imported.status !== 'OK') {
        if (!file.refusedBecause) throw new Error(`Demo file ${file.fileName} was refused: ${imported.text}`);
        result.rejected.push(file.fileName);
      }
    }
    outcome.push(result);
  }
  return outcome;
}

/** Seeder entry (seed/index.ts). */
export async function seedTimeSeries(database: Database): Promise<void> {
  await seedTimeSeriesData(database);
}
