import { inflateRawSync } from 'node:zlib';

/**
 * Zip-bomb guard for xlsx uploads. An xlsx file is a zip archive; a streaming zip reader (such as
 * the one inside exceljs) walks the *local* headers and inflates every entry it meets, including
 * entries the central directory does not list, so a 1 MB upload can expand to gigabytes. The guard
 * therefore covers every byte of the file:
 *
 * - it reads the central directory (a few hundred bytes per entry, no inflation) and rejects
 *   archives whose declared sizes or ratios are out of bounds;
 * - it requires the local entries to follow each other exactly as the central directory lists
 *   them and to fill the file up to the central directory: no hidden entry, no gap, no overlap;
 * - it inflates each entry with a hard output cap (its declared size, itself bounded), so an entry
 *   that lies about its size stops being inflated one byte past the lie.
 *
 * The caller gets the checked, inflated entries and reads only those (see table-workbook.ts): the
 * original archive bytes never reach a zip reader again.
 */
export interface ZipLimits {
  /** Upper bound for the sum of uncompressed entry sizes. */
  maxTotalUncompressedBytes: number;
  /** Upper bound for uncompressed / compressed, per entry and overall. */
  maxCompressionRatio: number;
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxTotalUncompressedBytes: 200 * 1024 * 1024,
  maxCompressionRatio: 100,
  maxEntries: 1000,
};

/**
 * Entries smaller than this are not held to the ratio limit: tiny XML parts (styles, a one-row
 * sheet of repeated cells) compress far beyond 100:1 and cannot hurt anybody.
 */
const RATIO_FLOOR_BYTES = 1024 * 1024;

export interface ZipEntryInfo {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

export interface ZipSummary {
  entries: ZipEntryInfo[];
  /** Where the central directory starts: the local entries must end exactly here. */
  centralDirectoryOffset: number;
  totalCompressedBytes: number;
  totalUncompressedBytes: number;
}

export class ZipGuardError extends Error {
  override readonly name = 'ZipGuardError';
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN_SIZE = 22;
const MAX_COMMENT = 0xffff;

function findEndOfCentralDirectory(buf: Buffer): number {
  const stop = Math.max(0, buf.length - EOCD_MIN_SIZE - MAX_COMMENT);
  for (let i = buf.length - EOCD_MIN_SIZE; i >= stop; i--) {
    if (buf.readUInt32LE(i) === EOCD_SIGNATURE) return i;
  }
  return -1;
}

/** Reads the central directory of a zip archive held in memory, without inflating anything. */
export function readZipCentralDirectory(buf: Buffer): ZipSummary {
  if (buf.length < EOCD_MIN_SIZE) throw new ZipGuardError('The file is not a valid xlsx workbook');
  const eocd = findEndOfCentralDirectory(buf);
  if (eocd < 0) throw new ZipGuardError('The file is not a valid xlsx workbook');
  const entryCount = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (entryCount === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    // ZIP64: never needed for a workbook within our size limit, and its sizes are 64-bit claims.
    throw new ZipGuardError('ZIP64 archives are not accepted');
  }
  if (cdOffset + cdSize > eocd) throw new ZipGuardError('The file is not a valid xlsx workbook');

  const entries: ZipEntryInfo[] = [];
  let totalCompressedBytes = 0;
  let totalUncompressedBytes = 0;
  let p = cdOffset;
  for (let n = 0; n < entryCount; n++) {
    if (p + 46 > eocd || buf.readUInt32LE(p) !== CENTRAL_SIGNATURE) {
      throw new ZipGuardError('The file is not a valid xlsx workbook');
    }
    const method = buf.readUInt16LE(p + 10);
    const compressedSize = buf.readUInt32LE(p + 20);
    const uncompressedSize = buf.readUInt32LE(p + 24);
    const nameLength = buf.readUInt16LE(p + 28);
    const extraLength = buf.readUInt16LE(p + 30);
    const commentLength = buf.readUInt16LE(p + 32);
    const localHeaderOffset = buf.readUInt32LE(p + 42);
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      throw new ZipGuardError('ZIP64 archives are not accepted');
    }
    const name = buf.toString('utf8', p + 46, p + 46 + nameLength);
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
    totalCompressedBytes += compressedSize;
    totalUncompressedBytes += uncompressedSize;
    p += 46 + nameLength + extraLength + commentLength;
  }
  return { entries, centralDirectoryOffset: cdOffset, totalCompressedBytes, totalUncompressedBytes };
}

const ratio = (uncompressed: number, compressed: number) => uncompressed / Math.max(compressed, 1);

/** A checked archive: its directory and every entry's inflated content, by name. */
export interface CheckedZip extends ZipSummary {
  contents: Map<string, Buffer>;
}

/**
 * Throws ZipGuardError unless the archive is within the limits. Checks the declared sizes first
 * (cheap), then walks the local entries in file order and inflates each with maxOutputLength set to
 * its declared size, so a lying header cannot make us produce more than the declared (and already
 * bounded) total. Answers the inflated contents, which is all a reader may read afterwards.
 */
export function assertSafeZip(buf: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): CheckedZip {
  const summary = readZipCentralDirectory(buf);
  if (summary.entries.length > limits.maxEntries) {
    throw new ZipGuardError(
      `The archive has ${summary.entries.length} entries; at most ${limits.maxEntries} are accepted`,
    );
  }
  if (summary.totalUncompressedBytes > limits.maxTotalUncompressedBytes) {
    throw new ZipGuardError(
      `The archive expands to ${summary.totalUncompressedBytes} bytes; at most ${limits.maxTotalUncompressedBytes} are accepted`,
    );
  }
  if (
    summary.totalUncompressedBytes > RATIO_FLOOR_BYTES &&
    ratio(summary.totalUncompressedBytes, summary.totalCompressedBytes) > limits.maxCompressionRatio
  ) {
    throw new ZipGuardError(`The archive's compression ratio exceeds ${limits.maxCompressionRatio}:1`);
  }
  for (const entry of summary.entries) {
    if (
      entry.uncompressedSize > RATIO_FLOOR_BYTES &&
      ratio(entry.uncompressedSize, entry.compressedSize) > limits.maxCompressionRatio
    ) {
      throw new ZipGuardError(`The entry ${entry.name} has a compression ratio above ${limits.maxCompressionRatio}:1`);
    }
  }
  // Local entries in file order must be exactly the listed ones, back to back from byte 0 to the
  // central directory: a byte no listed entry accounts for is a hidden entry a streaming reader
  // would inflate.
  const inFileOrder = [...summary.entries].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  const contents = new Map<string, Buffer>();
  let position = 0;
  for (const entry of inFileOrder) {
    if (entry.localHeaderOffset !== position) throw new ZipGuardError(HIDDEN_BYTES);
    if (contents.has(entry.name)) throw new ZipGuardError(`The entry ${entry.name} appears twice`);
    const { end, content } = checkEntry(buf, entry);
    contents.set(entry.name, content);
    position = end;
  }
  if (position !== summary.centralDirectoryOffset) throw new ZipGuardError(HIDDEN_BYTES);
  return { ...summary, contents };
}

const HIDDEN_BYTES = 'The archive holds data its directory does not list';
const DESCRIPTOR_SIGNATURE = 0x08074b50;

/** Checks one local entry against its directory record; answers where it ends and its content. */
function checkEntry(buf: Buffer, entry: ZipEntryInfo): { end: number; content: Buffer } {
  const h = entry.localHeaderOffset;
  if (h + 30 > buf.length || buf.readUInt32LE(h) !== LOCAL_SIGNATURE) {
    throw new ZipGuardError('The file is not a valid xlsx workbook');
  }
  const flags = buf.readUInt16LE(h + 6);
  const localMethod = buf.readUInt16LE(h + 8);
  const nameLength = buf.readUInt16LE(h + 26);
  const localName = buf.toString('utf8', h + 30, h + 30 + nameLength);
  const hasDescriptor = (flags & 0x08) !== 0;
  // Without a data descriptor the local header states the sizes too; they must agree with the
  // directory, or a streaming reader would read a different entry than the one checked here.
  if (
    localName !== entry.name ||
    localMethod !== entry.method ||
    (!hasDescriptor &&
      (buf.readUInt32LE(h + 18) !== entry.compressedSize || buf.readUInt32LE(h + 22) !== entry.uncompressedSize))
  ) {
    throw new ZipGuardError(`The entry ${entry.name} differs from its directory record`);
  }
  const start = h + 30 + nameLength + buf.readUInt16LE(h + 28);
  let end = start + entry.compressedSize;
  if (end > buf.length) throw new ZipGuardError('The file is not a valid xlsx workbook');
  const data = buf.subarray(start, end);
  if (hasDescriptor) {
    // crc32, compressed size, uncompressed size; optionally preceded by a signature.
    end += end + 4 <= buf.length && buf.readUInt32LE(end) === DESCRIPTOR_SIGNATURE ? 16 : 12;
    if (end > buf.length) throw new ZipGuardError('The file is not a valid xlsx workbook');
  }
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.uncompressedSize) {
      throw new ZipGuardError(`The entry ${entry.name} declares inconsistent sizes`);
    }
    return { end, content: data };
  }
  if (entry.method !== 8) throw new ZipGuardError(`The entry ${entry.name} uses an unsupported compression method`);
  let inflated: Buffer;
  try {
    // One byte of slack: an entry that inflates beyond its declared size fails here instead of
    // being truncated silently.
    inflated = inflateRawSync(data, { maxOutputLength: entry.uncompressedSize + 1 });
  } catch {
    throw new ZipGuardError(`The entry ${entry.name} inflates beyond its declared size or is corrupt`);
  }
  if (inflated.length !== entry.uncompressedSize) {
    throw new ZipGuardError(`The entry ${entry.name} inflates beyond its declared size or is corrupt`);
  }
  return { end, content: inflated };
}
