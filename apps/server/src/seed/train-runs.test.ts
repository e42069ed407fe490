import { COUNTRY_AREA_NAMES, COUNTRY_AREAS } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { readTrainRuns } from '../formats/trainrun/trainrun-format.js';
import { generateTrainRunFile } from '../formats/trainrun/trainrun-generator.js';
import { demoTrainRunSpec } from './train-runs.js';

async function* once(text: string): AsyncGenerator<Buffer> {
  yield Buffer.from(text);
}

describe('demo train runs', () => {
  it.each(COUNTRY_AREA_NAMES)('are a valid train-run file for %s, on its own clock', async (country) => {
    // The last Sunday of October: a 25-hour day in every area.
    const spec = demoTrainRunSpec(country, { days: ['2026-10-24', '2026-10-25'], runsPerDay: 150 });
    expect(spec.units.length).toBeGreaterThan(10);
    expect(spec.trafficCategories.length).toBeGreaterThan(0);
    const { runs, problems } = await readTrainRuns(once(generateTrainRunFile(spec)), {
      timeZone: COUNTRY_AREAS[country],
    });
    expect(problems).toEqual([]);
    expect(runs).toHaveLength(300);
    // Train numbers are unique per day, so every run has its own identity.
    expect(new Set(runs.map((r) => `${r.operatingDay} ${r.trainNumber}`)).size).toBe(300);
  });
});
