import type { QualityCode } from '@railwatt/contracts';

/**
 * Writes valid UTILTS files from a list of metering points and values, deterministically: the
 * fixtures of the tests, the demo data and the bench use it, and the property test parses what it
 * wrote back. The layout is the one docs/formats/utilts.md describes.
 */

export interface UtiltsSeriesInput {
  meteringPoint: string;
  /** Start of the period, a UTC instant (ISO 8601). */
  start: string;
  resolution: 'PT15M' | 'PT1H';
  /** One value per interval in kWh; null is written as quality 46 without a quantity. */
  values: (number | null)[];
  /** Quality per value (default 127). */
  qualities?: QualityCode[];
}

export interface UtiltsMonthlyInput {
  meteringPoint: string;
  /** The month's start, a UTC instant (ISO 8601): the start reading's time. */
  start: string;
  /** Its end (the next month's start): the end reading's time. */
  end: string;
  startReading: number;
  endReading: number;
  /** The month's consumption; omitted, the file holds only the readings. */
  consumption?: number;
}

export interface UtiltsFileInput {
  sender: string;
  receiver: string;
  /** Interchange and document reference. */
  reference: string;
  /** When the document was made (ISO 8601). */
  created: string;
  series?: UtiltsSeriesInput[];
  monthly?: UtiltsMonthlyInput[];
  /** Values are written in this unit (converted from kWh). Default KWH. */
  unit?: 'KWH' | 'MWH';
  /** Dates are written on this offset's wall clock with a `?+HH` suffix. Default 0. */
  offsetHours?: number;
  /** Everything on one line (default: one segment per line). */
  oneLine?: boolean;
}

const STEP_MS = { PT15M: 900_000, PT1H: 3_600_000 } as const;
const STATUS: Record<QualityCode, string> = { 127: 'Z01', 61: 'Z02', 56: 'Z03', 46: 'Z04' };

/** Releases the EDIFACT separators and the release character in a text. */
export const releaseText = (text: string): string => text.replace(/([?:+'])/g, '?$1');

/** A number as an EDIFACT decimal (no exponent, point as the mark). */
export function formatDecimal(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const fixed = value.toFixed(20);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

const toUnit = (kwh: number, unit: 'KWH' | 'MWH'): string =>
  unit === 'MWH' ? formatDecimal(Math.round(kwh * 1e6) / 1e9) : formatDecimal(kwh);

function stamp(iso: string, offsetHours: number): string {
  const wall = new Date(Date.parse(iso) + offsetHours * 3_600_000).toISOString();
  const digits = wall.slice(0, 16).replace(/\D/g, '');
  const sign = offsetHours < 0 ? '-' : '?+';
  return `${digits}${sign}${String(Math.abs(offsetHours)).padStart(2, '0')}`;
}

export function writeUtilts(input: UtiltsFileInput): string {
  const unit = input.unit ?? 'KWH';
  const offset = input.offsetHours ?? 0;
  const created = stamp(input.created, offset);
  const ref = releaseText(input.reference);
  const body: string[] = [
    `UNH+1+UTILTS:D:02B:UN:E5NO01`,
    `BGM+E66::260+${ref}+9`,
    `DTM+137:${created}:203`,
    `NAD+MS+${releaseText(input.sender)}::9`,
    `NAD+MR+${releaseText(input.receiver)}::9`,
  ];
  let n = 0;
  for (const s of input.series ?? []) {
    const end = new Date(Date.parse(s.start) + s.values.length * STEP_MS[s.resolution]).toISOString();
    body.push(
      `IDE+24+S${++n}`,
      `LOC+172+${releaseText(s.meteringPoint)}::9`,
      `DTM+324:${stamp(s.start, offset)}${stamp(end, offset)}:719`,
      `DTM+354:${s.resolution === 'PT1H' ? 60 : 15}:MIN`,
      `MEA+AAZ++${unit}`,
    );
    s.values.forEach((value, i) => {
      const quality = value === null ? 46 : (s.qualities?.[i] ?? 127);
      body.push(`SEQ+++${i + 1}`);
      if (value !== null) body.push(`QTY+136:${toUnit(value, unit)}`);
      if (quality !== 127) body.push(`STS+++${STATUS[quality]}`);
    });
  }
  for (const m of input.monthly ?? []) {
    body.push(
      `IDE+24+M${++n}`,
      `LOC+172+${releaseText(m.meteringPoint)}::9`,
      `DTM+324:${stamp(m.start, offset)}${stamp(m.end, offset)}:719`,
      `DTM+354:1:MON`,
      `MEA+AAZ++${unit}`,
    );
    if (m.consumption !== undefined) body.push(`SEQ+++1`, `QTY+136:${toUnit(m.consumption, unit)}`);
    body.push(`QTY+220:${toUnit(m.startReading, unit)}`, `DTM+7:${stamp(m.start, offset)}:203`);
    body.push(`QTY+220:${toUnit(m.endReading, unit)}`, `DTM+7:${stamp(m.end, offset)}:203`);
  }
  body.push(`UNT+${body.length + 1}+1`);
  const date = created.slice(2, 8);
  const time = created.slice(8, 12);
  const segments = [
    `UNB+UNOC:3+${releaseText(input.sender)}:14+${releaseText(input.receiver)}:14+${date}:${time}+${ref}`,
    ...body,
    `UNZ+1+${ref}`,
  ];
  const newline = input.oneLine ? '' : '\n';
  return `UNA:+.? '${newline}${segments.map((s) => `${s}'`).join(newline)}${newline}`;
}
