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
  /**
   * Write the series as Nordic Ediel does (docs/formats/utilts.md "Nordic Ediel"): MKS in the header,
   * LOC+239 with this grid area beside LOC+172, DTM+597, the series' STS+7, CCI/CAV, and SEQ numbering
   * every observation, the monthly readings (with DTM+597 and RFF+AES) included.
   */
  ediel?: { gridArea: string };
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
  const ediel = input.ediel;
  const body: string[] = [
    `UNH+1+UTILTS:D:02B:UN:${ediel ? 'E5SE1B' : 'E5NO01'}`,
    `BGM+E66::260+${ref}+9${ediel ? '+AB' : ''}`,
    `DTM+137:${created}:203`,
    ...(ediel ? ['MKS+23+E02::260'] : []),
    `NAD+MS+${releaseText(input.sender)}::9`,
    `NAD+MR+${releaseText(input.receiver)}::9`,
  ];
  /** The series' head: Nordic Ediel adds the grid area, the registration time, the reason and a characteristic. */
  const head = (id: string, meteringPoint: string, start: string, end: string, duration: string, plain: string) => {
    body.push(`IDE+24+${id}`, `LOC+172+${releaseText(meteringPoint)}::9`);
    if (ediel) body.push(`LOC+239+${releaseText(ediel.gridArea)}:SVK:260`);
    body.push(`DTM+324:${stamp(start, offset)}${stamp(end, offset)}:719`);
    if (ediel) body.push(`DTM+597:${created}:203`, `DTM+354:${duration}`, 'STS+7++E88::260');
    else body.push(`DTM+354:${plain}`);
    body.push(`MEA+AAZ++${unit}`);
    if (ediel) body.push('CCI+++E12::260', 'CAV+E17::260');
  };
  let n = 0;
  for (const s of input.series ?? []) {
    const end = new Date(Date.parse(s.start) + s.values.length * STEP_MS[s.resolution]).toISOString();
    const minutes = s.resolution === 'PT1H' ? 60 : 15;
    head(`S${++n}`, s.meteringPoint, s.start, end, `${minutes}:806`, `${minutes}:MIN`);
    s.values.forEach((value, i) => {
      const quality = value === null ? 46 : (s.qualities?.[i] ?? 127);
      body.push(ediel ? `SEQ++${i + 1}` : `SEQ+++${i + 1}`);
      if (value !== null) body.push(`QTY+136:${toUnit(value, unit)}`);
      if (quality !== 127) body.push(`STS+++${STATUS[quality]}`);
    });
  }
  for (const m of input.monthly ?? []) {
    head(`M${++n}`, m.meteringPoint, m.start, m.end, '1:802', '1:MON');
    if (ediel) {
      // SEQ numbers the readings first, then the month's consumption.
      body.push(
        'SEQ++1',
        'RFF+AES:101',
        `QTY+220:${toUnit(m.startReading, unit)}`,
        `DTM+597:${stamp(m.start, offset)}:203`,
      );
      body.push('CCI+++E22::260', 'CAV+E27::260');
      body.push(
        'SEQ++2',
        'RFF+AES:101',
        `QTY+220:${toUnit(m.endReading, unit)}`,
        `DTM+597:${stamp(m.end, offset)}:203`,
      );
      body.push('CCI+++E22::260', 'CAV+E27::260');
      if (m.consumption !== undefined) body.push('SEQ++3', `QTY+136:${toUnit(m.consumption, unit)}`);
      continue;
    }
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
