import { dayStartInZone } from '@railwatt/contracts';
import { toWall, wallCandidates } from '../timeseries-table/table-times.js';
import { CURRENCY_COLUMN, DAY_COLUMN, HOUR_COLUMN, RATE_COLUMN } from './nordpool-format.js';
import { seededRandom } from '../timeseries/seeded-random.js';

/**
 * Valid Nordpool price files for demo data, benchmarks and tests: deterministic (the same options
 * give the same bytes), in the layout nordpoolFormat reads (docs/formats/nordpool.md).
 */
export interface NordpoolFileOptions {
  /** First delivery day, YYYY-MM-DD. */
  fromDay: string;
  days: number;
  /** Price area columns; NO1-NO5 when not given. */
  areas?: string[];
  timeZone?: string;
  currency?: string;
  /** The exchange rate of the first hour; later hours drift a little. */
  rate?: number;
  /** How much the rate grows per day (default 0.001; 0 for a rate that cannot move, EUR in EUR). */
  rateDrift?: number;
  delimiter?: ';' | ',';
  seed?: number;
}

const HOUR_MS = 3_600_000;
const pad = (n: number) => String(n).padStart(2, '0');

export { seededRandom };

/** The delivery hours of a file: each hour's start and its label (02-03A/02-03B for the repeated hour). */
export function deliveryHours(
  fromDay: string,
  days: number,
  timeZone: string,
): { start: number; day: string; hour: string }[] {
  const first = Date.parse(dayStartInZone(fromDay, timeZone));
  const endDay = new Date(Date.parse(`${fromDay}T00:00:00Z`) + days * 24 * HOUR_MS).toISOString().slice(0, 10);
  const last = Date.parse(dayStartInZone(endDay, timeZone));
  const hours: { start: number; day: string; hour: string }[] = [];
  for (let start = first; start < last; start += HOUR_MS) {
    const wall = new Date(toWall(start, timeZone));
    const h = wall.getUTCHours();
    const candidates = wallCandidates(wall.getTime(), timeZone);
    const pass = candidates.length === 2 ? (candidates[0] === start ? 'A' : 'B') : '';
    const day = `${pad(wall.getUTCDate())}.${pad(wall.getUTCMonth() + 1)}.${wall.getUTCFullYear()}`;
    hours.push({ start, day, hour: `${pad(h)}-${pad((h + 1) % 24 === 0 ? 24 : h + 1)}${pass}` });
  }
  return hours;
}

/** A Nordpool CSV file of hourly prices (decimal comma) with the currency exchange rate. */
export function generateNordpoolCsv(options: NordpoolFileOptions): Buffer {
  const { fromDay, days, timeZone = 'Europe/Oslo', currency = 'NOK', rate = 11.5, delimiter = ';' } = options;
  const areas = options.areas ?? ['NO1', 'NO2', 'NO3', 'NO4', 'NO5'];
  const random = seededRandom(options.seed ?? 1);
  const decimal = (n: number, digits: number) => {
    const text = n.toFixed(digits);
    return delimiter === ';' ? text.replace('.', ',') : text;
  };
  const lines = [[DAY_COLUMN, HOUR_COLUMN, ...areas, CURRENCY_COLUMN, RATE_COLUMN].join(delimiter)];
  deliveryHours(fromDay, days, timeZone).forEach(({ day, hour, start }, i) => {
    const daily = Math.sin(((toWall(start, timeZone) / HOUR_MS) % 24) * (Math.PI / 12));
    const prices = areas.map((_, k) => decimal(40 + 25 * daily + 10 * random() - 3 * k, 2));
    lines.push(
      [day, hour, ...prices, currency, decimal(rate + (options.rateDrift ?? 0.001) * Math.floor(i / 24), 4)].join(
        delimiter,
      ),
    );
  });
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}
