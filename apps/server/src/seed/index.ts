import type { Database } from '../db/client.js';
import { seedAdministration } from './administration.js';
import { seedAreas } from './areas.js';
import { seedFleet } from './fleet.js';
import { seedInfrastructure } from './infrastructure.js';
import { seedTimeSeries } from './timeseries.js';
import { seedUsers } from './users.js';

/** A seeder puts one kind of demo data in place. It must be idempotent: it runs at every start. */
export type Seeder = (database: Database) => Promise<void>;

/**
 * The demo data, in dependency order. To add demo data, write `seedXxx(database)` in seed/xxx.ts
 * and append `{ name: 'xxx', run: seedXxx }` here after what it depends on.
 */
export const SEEDERS: readonly { name: string; run: Seeder }[] = [
  { name: 'areas', run: seedAreas },
  { name: 'users', run: seedUsers },
  { name: 'fleet', run: seedFleet },
  { name: 'infrastructure', run: seedInfrastructure },
  { name: 'administration', run: seedAdministration },
  // A month of files for Norway and Belgium through the intake (seed/timeseries-demo.ts); not in the test templates.
  { name: 'timeseries', run: seedTimeSeries },
];

export interface SeedOptions {
  /** Run only the named seeders (in list order), e.g. ['areas', 'users'] for tests. */
  only?: readonly string[];
  /** Leave these out (server.ts seeds the demo time series after it listens). */
  skip?: readonly string[];
}

export async function seedDemo(database: Database, options: SeedOptions = {}): Promise<string[]> {
  const { only, skip = [] } = options;
  if (only) {
    const unknown = only.filter((name) => !SEEDERS.some((s) => s.name === name));
    if (unknown.length) throw new Error(`Unknown seeders: ${unknown.join(', ')}`);
  }
  const ran: string[] = [];
  for (const seeder of SEEDERS) {
    if ((only && !only.includes(seeder.name)) || skip.includes(seeder.name)) continue;
    await seeder.run(database);
    ran.push(seeder.name);
  }
  return ran;
}
