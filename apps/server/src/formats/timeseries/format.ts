import type { QualityCode, Resolution, TimeSeriesTypeName, TractionSystemCode } from '@railwatt/contracts';

/**
 * One interface for every intake format (issue 8 item 3): a format module detects its files and
 * parses them as a stream into items (time series, CEBD records, train runs) and problems, each with
 * where it was found. Parsers never touch the database: the intake service (modules/timeseries)
 * resolves identifiers to entities, checks what needs master data and stores a file whole or not
 * at all. A parser must never throw on bad bytes: everything wrong with the input is a Problem.
 * (It may throw only for its own bugs, which the intake answers as ERROR.)
 */

/** Where something is in a file; messages name it ("line 12", "segment 34 (QTY)", "Sheet1!C7"). */
export interface SourceLocation {
  line?: number;
  column?: number;
  /** A spreadsheet cell (A1 style) and its sheet. */
  sheet?: string;
  cell?: string;
  /** EDIFACT: the 1-based segment number and its tag. */
  segment?: number;
  tag?: string;
  /** XML: the element path ("CEBDFile/CEBDBlock[3]/Record[17]/ActiveEnergyConsumed"). */
  path?: string;
}

export interface Problem {
  location: SourceLocation;
  message: string;
}

/** One value of a series: the start of its period (UTC instant, ISO 8601 with Z), value and quality. */
export interface ParsedPoint {
  start: string;
  /** null only with quality 46 (non-existent). */
  value: number | null;
  quality: QualityCode;
}

/**
 * A time series as a file states it. Long series may come in several chunks (same type, ref and
 * resolution); points of one chunk are in time order.
 */
export interface ParsedSeries {
  typeName: TimeSeriesTypeName;
  /** The identifier the file uses for the series' entity: a CPID, a metering point name, a price area name. */
  identifier: string;
  resolution: Resolution;
  /** The unit the file states, when it states one (kWh, MWh, EUR/MWh ...). */
  unit?: string;
  points: ParsedPoint[];
  location: SourceLocation;
}

/** One CEBD record (DOMAIN.md): a 5-minute period of one consumption point. */
export interface CebdRecord {
  /** End of the 5-minute period (UTC instant). */
  periodEnd: string;
  /** kWh and kvarh; regenerated values are positive numbers. */
  activeConsumed: number;
  activeRegenerated: number;
  reactiveConsumed: number;
  reactiveRegenerated: number;
  lat: number | null;
  lon: number | null;
  tractionSystem: TractionSystemCode;
  quality: QualityCode;
}

/** CEBD records of one consumption point (a CEBD block, or a reading block after differencing). */
export interface ParsedCebdBlock {
  cpid: string;
  /** The data collecting service that sent the block, when the file names it. */
  dcs?: string;
  /** CEBDBlock, or ReadingBlock (register readings turned into interval values by differencing). */
  blockType: 'CEBDBlock' | 'ReadingBlock';
  records: CebdRecord[];
  location: SourceLocation;
}

/** A train run (docs/formats/train-runs.md). */
export interface ParsedTrainRun {
  action: 'input' | 'correction' | 'delete';
  trainNumber: string;
  /** Operating day as YYYY-MM-DD (in the area's calendar). */
  operatingDay: string;
  railwayUndertaking: string;
  trafficCategory?: string;
  trainProfile?: string;
  route: string[];
  departure?: string;
  arrival?: string;
  composition: { evn: string; grossWeightTonnes: number; position?: number }[];
  grossTonneKm?: number;
  location: SourceLocation;
}

export type ParseItem =
  | { kind: 'series'; series: ParsedSeries }
  | { kind: 'cebd'; block: ParsedCebdBlock }
  | { kind: 'trainrun'; run: ParsedTrainRun }
  | { kind: 'problem'; problem: Problem };

export interface ParseOptions {
  /** The area's time zone: local times in a file (xlsx, csv, Nordpool) are read on this wall clock. */
  timeZone: string;
  /** Stop after this many problems (the file is refused anyway). Default 100. */
  maxProblems?: number;
}

export type FormatName = 'cebd' | 'utilts' | 'sdv' | 'xlsx' | 'csv' | 'nordpool' | 'trainrun';

export interface IntakeFormat {
  name: FormatName;
  /** Whether this module reads the file, from its name and first bytes (at most 4 kB). */
  detect(fileName: string, head: Buffer): boolean;
  /** Parses the bytes as they arrive; yields items and problems in file order. */
  parse(input: AsyncIterable<Buffer>, options: ParseOptions): AsyncIterable<ParseItem>;
}

/** "line 12", "segment 34 (QTY)", "Sheet1!C7", "CEBDFile/CEBDBlock[3]": the words every message uses. */
export function describeLocation(location: SourceLocation): string {
  const parts: string[] = [];
  if (location.sheet !== undefined || location.cell !== undefined) {
    parts.push(`${location.sheet ? `${location.sheet}!` : ''}${location.cell ?? ''}`);
  }
  if (location.segment !== undefined)
    parts.push(`segment ${location.segment}${location.tag ? ` (${location.tag})` : ''}`);
  if (location.path !== undefined) parts.push(location.path);
  if (location.line !== undefined) {
    parts.push(`line ${location.line}${location.column !== undefined ? `, column ${location.column}` : ''}`);
  }
  return parts.join(', ');
}

/** A problem's text as the data log and the upload answer show it: "line 12: Value x is invalid". */
export const problemText = (problem: Problem): string => {
  const where = describeLocation(problem.location);
  return where ? `${where}: ${problem.message}` : problem.message;
};
