import { resolve } from 'node:path';
import type { CebdRecord, ParseItem, ParsedCebdBlock, Problem } from '../timeseries/format.js';
import { parseCebd } from './cebd-format.js';

/** Test helpers for the CEBD parser: feed bytes in chunks, collect what comes out. */

export const DOCS_FORMATS = resolve(import.meta.dirname, '../../../../../docs/formats');
export const EXAMPLE_FILES = {
  cebd: resolve(DOCS_FORMATS, 'examples/cebd-example.xml'),
  readings: resolve(DOCS_FORMATS, 'examples/reading-block-example.xml'),
};

/** The bytes as an async stream of chunks of `size` bytes (the whole buffer when size is 0). */
export async function* chunked(bytes: Buffer, size = 0): AsyncGenerator<Buffer> {
  if (size <= 0) {
    yield bytes;
    return;
  }
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

export interface Parsed {
  items: ParseItem[];
  blocks: ParsedCebdBlock[];
  problems: Problem[];
  /** Every record in file order. */
  records: CebdRecord[];
}

export async function parseBytes(
  input: Buffer | string,
  options: { chunkSize?: number; maxProblems?: number } = {},
): Promise<Parsed> {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const items: ParseItem[] = [];
  const parseOptions = { timeZone: 'UTC', ...(options.maxProblems ? { maxProblems: options.maxProblems } : {}) };
  for await (const item of parseCebd(chunked(bytes, options.chunkSize), parseOptions)) items.push(item);
  const blocks = items.flatMap((i) => (i.kind === 'cebd' ? [i.block] : []));
  return {
    items,
    blocks,
    problems: items.flatMap((i) => (i.kind === 'problem' ? [i.problem] : [])),
    records: blocks.flatMap((b) => b.records),
  };
}

export const CPID = 'NO_NSB_917600100015_EMS1';

/** Root on line 2, the body from line 3: messages' line numbers are easy to work out. */
export const cebdFile = (body: string, rootAttributes = 'version="1" sender="DCS-1" created="2026-10-01T01:00:00Z"') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<CEBDFile xmlns="urn:railwatt:cebd:1" ${rootAttributes}>\n${body}\n</CEBDFile>\n`;

const RECORD_DEFAULTS: Record<string, string> = {
  periodEnd: '2026-10-01T00:05:00Z',
  activeConsumed: '1.5',
  activeRegenerated: '0',
  reactiveConsumed: '0.25',
  reactiveRegenerated: '0',
  lat: '59.91',
  lon: '10.75',
  tractionSystem: '02',
  quality: '127',
};

/** A Record (or Reading) element: defaults overridden by `values`; undefined leaves one out. */
export function element(name: 'Record' | 'Reading', values: Record<string, string | undefined> = {}): string {
  const merged: Record<string, string | undefined> = { ...RECORD_DEFAULTS, ...values };
  if (name === 'Reading') {
    merged.time = 'time' in values ? values.time : merged.periodEnd;
    delete merged.periodEnd;
    if ('periodEnd' in values) merged.periodEnd = values.periodEnd;
  }
  const attributes = Object.entries(merged)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ');
  return `<${name} ${attributes}/>`;
}

export const record = (values: Record<string, string | undefined> = {}) => element('Record', values);
export const reading = (values: Record<string, string | undefined> = {}) => element('Reading', values);

/** A CEBDBlock on line 3 whose records are on lines 4, 5 ... */
export const cebdBlock = (records: string[], cpid = CPID) =>
  cebdFile(`<CEBDBlock cpid="${cpid}">\n${records.join('\n')}\n</CEBDBlock>`);

export const readingBlock = (readings: string[], cpid = CPID) =>
  cebdFile(`<ReadingBlock cpid="${cpid}">\n${readings.join('\n')}\n</ReadingBlock>`);
