import { SaxesParser, type SaxesTagPlain } from 'saxes';
import type { QualityCode, TractionSystemCode } from '@railwatt/contracts';
import type {
  CebdRecord,
  IntakeFormat,
  ParseItem,
  ParseOptions,
  ParsedCebdBlock,
  SourceLocation,
} from '../timeseries/format.js';
import {
  PERIOD_MS,
  readCoordinate,
  readCpid,
  readEnergy,
  readInstant,
  readPeriodInstant,
  readQuality,
  readTractionSystem,
  registerDifference,
  shown,
  type Read,
} from './cebd-values.js';

/**
 * The CEBD intake format (docs/formats/cebd.md, docs/formats/cebd.xsd): a stream parser over saxes.
 * The document is never built: each Record (or pair of Readings) becomes a CebdRecord as its tag
 * closes, records are handed on in chunks of at most 5,000 per consumption point, and the bytes are
 * read only as fast as the caller takes the items, so memory stays that of one chunk whatever the
 * file's size. saxes runs without namespace processing (it costs a third of the time): the format
 * requires the namespace as the root's default namespace and unprefixed element names, and this
 * module checks that itself.
 */

export const CEBD_NAMESPACE = 'urn:railwatt:cebd:1';
export const CEBD_VERSION = '1';
/** Records per yielded item: the intake stores chunks, never a whole day file, at once. */
export const CEBD_CHUNK_RECORDS = 5_000;
/** Characters saxes is given at once, so one huge input buffer is not one huge batch of items. */
const SLICE_CHARS = 64 * 1024;
/** Longest stretch without a tag or text event: bounds what saxes buffers for one token. */
const MAX_TOKEN_CHARS = 1024 * 1024;
/** Deepest nesting read (the format has three levels): saxes and the path stack stay small. */
const MAX_DEPTH = 16;

const ENERGY_ATTRIBUTES = ['activeConsumed', 'activeRegenerated', 'reactiveConsumed', 'reactiveRegenerated'] as const;
const COMMON_ATTRIBUTES = [...ENERGY_ATTRIBUTES, 'lat', 'lon', 'tractionSystem', 'quality'];
const RECORD_ATTRIBUTES = new Set(['periodEnd', ...COMMON_ATTRIBUTES]);
const READING_ATTRIBUTES = new Set(['time', ...COMMON_ATTRIBUTES]);
const BLOCK_ATTRIBUTES = new Set(['cpid']);
const ROOT_ATTRIBUTES = new Set(['xmlns', 'version', 'sender', 'created']);

/** What one Record or Reading says once every attribute is read. */
interface Entry {
  ms: number;
  time: string;
  energies: [number, number, number, number];
  lat: number | null;
  lon: number | null;
  tractionSystem: TractionSystemCode;
  quality: QualityCode;
}

interface Block {
  type: 'CEBDBlock' | 'ReadingBlock';
  /** null when the cpid is missing or invalid: entries are still checked, nothing is yielded. */
  cpid: string | null;
  location: SourceLocation;
  records: CebdRecord[];
  /** Child elements seen (valid or not). */
  children: number;
  /** The last valid entry and its element index, for order, duplicates and differences. */
  last: Entry | null;
  lastIndex: number;
  /** The periods of this CPID stated by earlier blocks (Slots), shared by every block of the CPID. */
  slots: Slots | null;
  /** Records of this block whose period an earlier block of its CPID already stated. */
  duplicates: { count: number; first: string; last: string; location: SourceLocation } | null;
}

/** 5-minute periods per number of a Slots map: 30 bits keep every mask a small integer. */
const SLOTS_PER_WORD = 30;

/**
 * The periods one CPID's records stated in this file, as bits: period p (its end in 5-minute steps
 * since 1970) is bit p % 30 of the number under key floor(p / 30). Records arrive in ascending time,
 * so a CPID's day of 288 periods is about ten entries; memory grows with the periods a file holds,
 * not with its bytes, and a check is two map operations.
 */
type Slots = Map<number, number>;

interface Frame {
  name: string;
  /** "Name[3]" or the root's bare name. */
  step: string;
  /** Children seen per name; made when the first child opens (records have none). */
  counts: Map<string, number> | null;
}

const childOf = (block: Block): 'Record' | 'Reading' => (block.type === 'CEBDBlock' ? 'Record' : 'Reading');

class CebdReader {
  readonly out: ParseItem[] = [];
  stopped = false;
  private readonly parser = new SaxesParser<{ position: true; xmlns: false }>({ position: true, xmlns: false });
  private problems = 0;
  private readonly stack: Frame[] = [];
  /** Depth of an unexpected element whose content is skipped (0: none). */
  private skipDepth = 0;
  private dcs: string | undefined;
  private block: Block | null = null;
  /** Per CPID, the periods its blocks stated so far (duplicates across blocks of one file). */
  private readonly periods = new Map<string, Slots>();
  private tagLine = 1;
  private tagColumn = 1;
  /** Where the last tag or comment ended: text starts there. */
  private markupEndLine = 1;
  private markupEndColumn = 0;
  private lastEventPosition = 0;

  constructor(private readonly maxProblems: number) {
    const p = this.parser;
    p.on('opentagstart', (tag) => {
      this.lastEventPosition = p.position;
      this.tagLine = p.line;
      this.tagColumn = p.column - tag.name.length - 1;
    });
    p.on('opentag', (tag) => this.open(tag));
    p.on('closetag', () => this.close());
    p.on('text', (text) => this.text(text));
    p.on('cdata', (text) => this.text(text));
    p.on('comment', () => this.markupEnd());
    p.on('doctype', () => this.fatal('A DOCTYPE is not allowed in a CEBD file', this.here()));
    p.on('xmldecl', (decl) => {
      if (decl.encoding !== undefined && decl.encoding.toUpperCase() !== 'UTF-8') {
        this.fatal(`The file declares encoding ${shown(decl.encoding)}; a CEBD file is UTF-8`, this.here());
      }
    });
    p.on('error', (err) => {
      const message = err.message.replace(/^\d+:\d+: /, '');
      this.fatal(`The file is not well-formed XML: ${message}`, this.here());
    });
  }

  write(text: string): void {
    for (let at = 0; at < text.length && !this.stopped;) {
      let end = Math.min(text.length, at + SLICE_CHARS);
      // Never cut a surrogate pair: saxes would carry it over, but whole characters are simpler.
      if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end -= 1;
      this.parser.write(text.slice(at, end));
      at = end;
      if (!this.stopped && this.parser.position - this.lastEventPosition > MAX_TOKEN_CHARS) {
        this.fatal('A tag, attribute value, comment or text is longer than 1,000,000 characters', this.here());
      }
    }
  }

  end(): void {
    if (this.stopped) return;
    if (this.parser.position === 0) {
      this.problem('The file is empty', {});
      return;
    }
    this.parser.close();
  }

  notUtf8(): void {
    this.fatal('The file is not valid UTF-8', this.here());
  }

  private here(): SourceLocation {
    // saxes' column is 0-based and points past the character just read: the 1-based column of that one.
    const location: SourceLocation = { line: this.parser.line, column: Math.max(1, this.parser.column) };
    if (this.stack.length > 0) location.path = this.path();
    return location;
  }

  private path(): string {
    return this.stack.map((f) => f.step).join('/');
  }

  /** Where the element being read starts (built only for a problem: paths cost). */
  private element(): SourceLocation {
    return { line: this.tagLine, column: this.tagColumn, path: this.path() };
  }

  private problem(message: string, location: SourceLocation = this.element()): void {
    if (this.stopped) return;
    this.flush();
    this.out.push({ kind: 'problem', problem: { location, message } });
    this.problems += 1;
    if (this.problems >= this.maxProblems) this.stopped = true;
  }

  private fatal(message: string, location: SourceLocation = this.element()): void {
    this.problem(message, location);
    this.stopped = true;
  }

  /** Hands on the current block's records (file order: before any problem that follows them). */
  private flush(): void {
    const b = this.block;
    if (!b || b.cpid === null || b.records.length === 0) return;
    const block: ParsedCebdBlock = { cpid: b.cpid, blockType: b.type, records: b.records, location: b.location };
    if (this.dcs !== undefined) block.dcs = this.dcs;
    this.out.push({ kind: 'cebd', block });
    b.records = [];
  }

  private markupEnd(): void {
    this.lastEventPosition = this.parser.position;
    this.markupEndLine = this.parser.line;
    this.markupEndColumn = this.parser.column;
  }

  private open(tag: SaxesTagPlain): void {
    this.markupEnd();
    if (this.stopped) return;
    const parent = this.stack[this.stack.length - 1];
    let step = tag.name;
    let index = 0;
    if (parent) {
      parent.counts ??= new Map();
      index = (parent.counts.get(tag.name) ?? 0) + 1;
      parent.counts.set(tag.name, index);
      step = `${tag.name}[${index}]`;
    }
    this.stack.push({ name: tag.name, step, counts: null });
    if (this.stack.length > MAX_DEPTH) return this.fatal(`Elements are nested deeper than ${MAX_DEPTH} levels`);
    if (this.skipDepth > 0) return;
    const depth = this.stack.length;
    if (depth === 1) return this.openRoot(tag);
    if (depth === 2 && (tag.name === 'CEBDBlock' || tag.name === 'ReadingBlock')) {
      return this.openBlock(tag);
    }
    const block = this.block;
    if (depth === 3 && block) {
      if (tag.name === childOf(block)) return this.entry(block, tag, index);
    }
    const expected = depth === 2 ? 'CEBDBlock or ReadingBlock' : depth === 3 && block ? childOf(block) : 'no element';
    this.problem(`Unexpected element ${shown(tag.name)} (expected ${expected} here)`);
    this.skipDepth = depth;
  }

  private close(): void {
    this.markupEnd();
    if (this.stopped) return;
    const depth = this.stack.length;
    if (this.skipDepth > 0) {
      if (depth === this.skipDepth) this.skipDepth = 0;
    } else if (depth === 2 && this.block) {
      const b = this.block;
      if (b.type === 'CEBDBlock' && b.children === 0) this.problem('A CEBDBlock has at least one Record', b.location);
      if (b.type === 'ReadingBlock' && b.children < 2) {
        this.problem(
          'A ReadingBlock has at least two Readings (the first is only the base of the differences)',
          b.location,
        );
      }
      this.reportDuplicates(b);
      this.flush();
      this.block = null;
    }
    this.stack.pop();
  }

  private text(text: string): void {
    this.lastEventPosition = this.parser.position;
    if (this.stopped || this.skipDepth > 0) return;
    const k = text.search(/\S/);
    if (k < 0) return;
    // The text began where the last markup ended; point at its first visible character.
    const before = text.slice(0, k);
    const newlines = before.split('\n').length - 1;
    const location: SourceLocation = {
      line: this.markupEndLine + newlines,
      column: newlines === 0 ? this.markupEndColumn + k + 1 : k - before.lastIndexOf('\n'),
    };
    if (this.stack.length > 0) location.path = this.path();
    this.problem(`Unexpected text ${shown(text.trim())}`, location);
  }

  private openRoot(tag: SaxesTagPlain): void {
    const a = tag.attributes;
    if (tag.name !== 'CEBDFile' || a.xmlns !== CEBD_NAMESPACE) {
      const found = tag.name === 'CEBDFile' ? `CEBDFile with xmlns=${shown(a.xmlns ?? '')}` : shown(tag.name);
      return this.fatal(
        `The root element is ${found}; a CEBD file has the root CEBDFile with xmlns="${CEBD_NAMESPACE}" (default namespace, no prefix)`,
      );
    }
    if (a.version !== CEBD_VERSION) {
      return this.fatal(
        a.version === undefined
          ? 'Attribute version is missing'
          : `Version ${shown(a.version)} is not supported (this is version ${CEBD_VERSION} of the format)`,
      );
    }
    this.unknownAttributes(a, ROOT_ATTRIBUTES, true);
    const sender = a.sender;
    if (sender === undefined) this.problem('Attribute sender is missing');
    else if (sender.trim() === '' || sender.length > 100) {
      this.problem(`Value ${shown(sender)} is invalid for sender (1 to 100 characters)`);
    } else this.dcs = sender;
    if (a.created === undefined) this.problem('Attribute created is missing');
    else this.check(readInstant('created', a.created));
  }

  private openBlock(tag: SaxesTagPlain): void {
    const a = tag.attributes;
    this.unknownAttributes(a, BLOCK_ATTRIBUTES);
    let cpid: string | null = null;
    if (a.cpid === undefined) this.problem('Attribute cpid is missing');
    else cpid = this.check(readCpid(a.cpid));
    const type = tag.name as Block['type'];
    let slots: Slots | null = null;
    if (cpid !== null) {
      slots = this.periods.get(cpid) ?? new Map<number, number>();
      this.periods.set(cpid, slots);
    }
    this.block = {
      type,
      cpid,
      location: this.element(),
      records: [],
      children: 0,
      last: null,
      lastIndex: 0,
      slots,
      duplicates: null,
    };
  }

  /**
   * False when an earlier block of the CPID stated the period ending at `ms` (the record is counted
   * as a duplicate and not handed on); else marks the period as stated. Within a block, ascending
   * time already rules a repeat out (entry checks it against the previous one).
   */
  private firstTime(block: Block, ms: number, time: string): boolean {
    const slots = block.slots;
    if (!slots) return true;
    const period = ms / PERIOD_MS;
    const key = Math.floor(period / SLOTS_PER_WORD);
    const bit = 1 << (period - key * SLOTS_PER_WORD);
    const word = slots.get(key) ?? 0;
    if ((word & bit) === 0) {
      slots.set(key, word | bit);
      return true;
    }
    if (block.duplicates) {
      block.duplicates.count += 1;
      block.duplicates.last = time;
    } else block.duplicates = { count: 1, first: time, last: time, location: this.element() };
    return false;
  }

  /**
   * calls.md §8's "Duplicate detected", once per block with the count: a block that repeats another
   * block's day would otherwise spend the file's problem budget on one fault.
   */
  private reportDuplicates(block: Block): void {
    const d = block.duplicates;
    if (!d) return;
    const name = childOf(block);
    const periods = d.count === 1 ? `period ending ${d.first}` : `${d.count} periods ending ${d.first} .. ${d.last}`;
    this.problem(
      `Duplicate detected: ${name}s of CPID ${block.cpid} state the ${periods}, which an earlier block of this CPID already states`,
      d.location,
    );
  }

  private check<T>(read: Read<T>): T | null {
    if (read.ok) return read.value;
    this.problem(read.message);
    return null;
  }

  private unknownAttributes(a: Record<string, string>, known: Set<string>, root = false): void {
    for (const name in a) {
      if (known.has(name)) continue;
      // Namespace declarations are harmless; xsi:schemaLocation may point at the published XSD.
      if (name.startsWith('xmlns:') || (root && name.startsWith('xsi:'))) continue;
      if (name === 'xmlns' && a[name] === CEBD_NAMESPACE) continue;
      this.problem(`Unknown attribute ${shown(name)}`);
    }
  }

  /** Reads a Record or Reading; a valid one becomes a record (a Reading: with its predecessor). */
  private entry(block: Block, tag: SaxesTagPlain, index: number): void {
    block.children += 1;
    const isRecord = block.type === 'CEBDBlock';
    const a = tag.attributes;
    const before = this.problems;
    this.unknownAttributes(a, isRecord ? RECORD_ATTRIBUTES : READING_ATTRIBUTES);
    const timeName = isRecord ? 'periodEnd' : 'time';
    const entry = this.readEntry(a, timeName);
    if (this.stopped) return;
    if (!entry || this.problems !== before) {
      // A Reading that could not be read breaks the chain: the next one starts it again.
      if (!isRecord) block.last = null;
      return;
    }
    const last = block.last;
    const name = isRecord ? 'Record' : 'Reading';
    if (last && entry.ms === last.ms) {
      return this.problem(
        `Duplicate detected: ${timeName} ${entry.time}: ${name}[${block.lastIndex}] of this block has the same ${timeName}`,
      );
    }
    if (last && entry.ms < last.ms) {
      return this.problem(
        `${timeName} ${entry.time} is before ${last.time} of ${name}[${block.lastIndex}]: ${name}s must be in ascending time`,
      );
    }
    block.last = entry;
    block.lastIndex = index;
    if (isRecord) {
      if (this.firstTime(block, entry.ms, entry.time)) this.push(block, toRecord(entry, entry.energies, entry.quality));
      return;
    }
    if (!last) return;
    if (entry.ms - last.ms !== PERIOD_MS) {
      return this.problem(
        `Reading at ${entry.time} is ${(entry.ms - last.ms) / 60_000} minutes after the previous reading at ${last.time}: readings are 5 minutes apart (after a gap, start a new ReadingBlock)`,
      );
    }
    const energies = [0, 0, 0, 0] as [number, number, number, number];
    for (let i = 0; i < 4; i++) {
      if (entry.energies[i]! < last.energies[i]!) {
        return this.problem(
          `Reading at ${entry.time}: ${ENERGY_ATTRIBUTES[i]} decreases from ${last.energies[i]} to ${entry.energies[i]} (registers only grow; after a meter reset or exchange, start a new ReadingBlock)`,
        );
      }
      energies[i] = registerDifference(entry.energies[i]!, last.energies[i]!);
    }
    // The period is as good as the worse of its two readings (46 < 56 < 61 < 127).
    if (this.firstTime(block, entry.ms, entry.time)) {
      this.push(block, toRecord(entry, energies, Math.min(entry.quality, last.quality) as QualityCode));
    }
  }

  private push(block: Block, record: CebdRecord): void {
    if (block.cpid === null) return;
    block.records.push(record);
    if (block.records.length >= CEBD_CHUNK_RECORDS) this.flush();
  }

  /** Every attribute of a Record or Reading; null (with its problems reported) when one is wrong. */
  private readEntry(a: Record<string, string>, timeName: string): Entry | null {
    const before = this.problems;
    const ms = this.attribute(a, timeName, readPeriodInstant);
    const energies = [0, 0, 0, 0] as [number, number, number, number];
    for (let i = 0; i < 4; i++) energies[i] = this.attribute(a, ENERGY_ATTRIBUTES[i]!, readEnergy) ?? 0;
    let lat: number | null = null;
    let lon: number | null = null;
    if (a.lat !== undefined || a.lon !== undefined) {
      if (a.lat === undefined) this.problem('Attribute lat is missing (lat and lon come together)');
      else lat = this.check(readCoordinate('lat', a.lat));
      if (a.lon === undefined) this.problem('Attribute lon is missing (lat and lon come together)');
      else lon = this.check(readCoordinate('lon', a.lon));
    }
    const tractionSystem = this.attribute(a, 'tractionSystem', readTractionSystem);
    const quality = a.quality === undefined ? 127 : this.check(readQuality('quality', a.quality));
    if (this.problems !== before || ms === null || tractionSystem === null || quality === null) return null;
    if (quality === 46) {
      if (timeName === 'time') {
        this.problem('A Reading cannot have quality 46 (non-existent): leave it out and start a new ReadingBlock');
        return null;
      }
      const nonZero = energies.findIndex((e) => e !== 0);
      if (nonZero >= 0) {
        this.problem(
          `Quality 46 (non-existent) needs every energy 0, but ${ENERGY_ATTRIBUTES[nonZero]} is ${energies[nonZero]}`,
        );
        return null;
      }
    }
    return { ms, time: a[timeName]!, energies, lat, lon, tractionSystem, quality };
  }

  /** A required attribute read by `read`, or null with its problem reported. */
  private attribute<T>(
    a: Record<string, string>,
    name: string,
    read: (name: string, text: string) => Read<T>,
  ): T | null {
    const text = a[name];
    if (text === undefined) {
      this.problem(`Attribute ${name} is missing`);
      return null;
    }
    return this.check(read(name, text));
  }
}

function toRecord(entry: Entry, energies: [number, number, number, number], quality: QualityCode): CebdRecord {
  return {
    periodEnd: entry.time,
    activeConsumed: energies[0],
    activeRegenerated: energies[1],
    reactiveConsumed: energies[2],
    reactiveRegenerated: energies[3],
    lat: entry.lat,
    lon: entry.lon,
    tractionSystem: entry.tractionSystem,
    quality,
  };
}

/**
 * Parses a CEBD file as its bytes arrive. Never throws for anything in the bytes: every fault is a
 * problem item with its line, column and element path; after a fault that leaves the rest
 * unreadable (not XML, wrong root) or maxProblems problems it stops reading.
 */
export async function* parseCebd(input: AsyncIterable<Buffer>, options: ParseOptions): AsyncGenerator<ParseItem> {
  const reader = new CebdReader(Math.max(1, options.maxProblems ?? 100));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (bytes?: Buffer): string | null => {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
    } catch {
      reader.notUtf8();
      return null;
    }
  };
  for await (const bytes of input) {
    const text = decode(bytes);
    if (text !== null) reader.write(text);
    yield* reader.out.splice(0);
    if (reader.stopped) return;
  }
  const rest = decode();
  if (rest) reader.write(rest);
  reader.end();
  yield* reader.out.splice(0);
}

/** CEBD files: the root CEBDFile or the namespace in the first bytes (any file name). */
export function detectCebd(fileName: string, head: Buffer): boolean {
  void fileName;
  const text = head.subarray(0, 4096).toString('utf8');
  return text.includes(CEBD_NAMESPACE) || /<([\w.-]+:)?CEBDFile[\s/>]/.test(text);
}

export const cebdFormat: IntakeFormat = { name: 'cebd', detect: detectCebd, parse: parseCebd };
