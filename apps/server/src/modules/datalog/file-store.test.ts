import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { allAreasExecutor, tenantExecutor } from '../../db/tenant.js';
import { openTestDatabase } from '../../test/database.js';
import type { TxExecutor } from '../domain/sql.js';
import { failInterruptedFiles, startFile } from './datalog-service.js';
import {
  copyFileBytes,
  openStoredFile,
  PART_BYTES,
  readFileBytes,
  storedFileSize,
  writeFileBytes,
} from './file-store.js';

const TENANT = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

/** A source that yields `bytes` in uneven chunks, like a multipart stream. */
async function* chunked(bytes: Buffer, size = 65_537): AsyncIterable<Buffer> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

describe('data-log file store: bytes in parts', () => {
  let database: Database;
  let db: TxExecutor;
  beforeAll(async () => {
    database = await openTestDatabase();
    // As the server runs: the app role under row-level security.
    await database.useAppRole();
    db = tenantExecutor(database, TENANT);
  });
  afterAll(async () => database?.close());

  const entry = () =>
    startFile(db, { tenant: TENANT, username: 'keeper', messageType: 'CSV_IMPORT', fileName: 'f.csv' });
  /** The stored parts' sizes, seen across areas (what is really in the table). */
  const partSizes = async (id: number) =>
    (
      await allAreasExecutor(database).execute(
        sql`SELECT octet_length(bytes) AS n FROM data_log_part WHERE data_log_id = ${id} ORDER BY part`,
      )
    ).rows.map((r) => Number(r.n));
  const partsOf = async (id: number) => {
    const file = (await openStoredFile(db, TENANT, id))!;
    const parts: Buffer[] = [];
    for await (const part of file.parts()) parts.push(part);
    return { size: file.size, parts };
  };

  it('stores an empty file as a size and no parts', async () => {
    const id = await entry();
    expect(await writeFileBytes(db, TENANT, id, chunked(Buffer.alloc(0)))).toBe(0);
    expect(await partsOf(id)).toEqual({ size: 0, parts: [] });
    expect(await readFileBytes(db, TENANT, id)).toEqual(Buffer.alloc(0));
  });

  it('stores exactly one part, and one byte over as a second part of one byte, from a stream or a buffer', async () => {
    for (const length of [PART_BYTES, PART_BYTES + 1]) {
      const bytes = randomBytes(length);
      for (const source of [chunked(bytes), bytes]) {
        const id = await entry();
        expect(await writeFileBytes(db, TENANT, id, source)).toBe(length);
        expect(await storedFileSize(db, TENANT, id)).toBe(length);
        const { parts } = await partsOf(id);
        expect(parts.map((p) => p.length)).toEqual(length === PART_BYTES ? [PART_BYTES] : [PART_BYTES, 1]);
        expect(Buffer.concat(parts).equals(bytes)).toBe(true);
        expect((await readFileBytes(db, TENANT, id))!.equals(bytes)).toBe(true);
      }
    }
  });

  it('keeps nothing of a source that fails half-way, and no size', async () => {
    const id = await entry();
    const failing = async function* () {
      yield randomBytes(PART_BYTES + 10);
      throw new Error('client went away');
    };
    await expect(writeFileBytes(db, TENANT, id, failing())).rejects.toThrow('client went away');
    expect(await storedFileSize(db, TENANT, id)).toBeNull();
    expect(await openStoredFile(db, TENANT, id)).toBeNull();
    expect(await partSizes(id)).toEqual([]);
  });

  it('copies a file part by part inside the database (re-import)', async () => {
    const bytes = randomBytes(2 * PART_BYTES + 5);
    const from = await entry();
    await writeFileBytes(db, TENANT, from, bytes);
    const to = await entry();
    expect(await copyFileBytes(db, TENANT, from, to)).toBe(true);
    expect((await readFileBytes(db, TENANT, to))!.equals(bytes)).toBe(true);
    expect(await copyFileBytes(db, TENANT, await entry(), to)).toBe(false);
  });

  it("keeps another area's parts out of reach (row-level security)", async () => {
    const id = await entry();
    await writeFileBytes(db, TENANT, id, Buffer.from('secret'));
    const other = tenantExecutor(database, OTHER);
    expect(await openStoredFile(other, TENANT, id)).toBeNull();
    // Without the tenant clause: only the policy stands between the other area and the parts.
    const visible = await other.execute(sql`SELECT count(*)::int AS n FROM data_log_part WHERE data_log_id = ${id}`);
    expect(visible.rows).toEqual([{ n: 0 }]);
    expect(await partSizes(id)).toEqual([6]);
  });

  it('removes at start-up the parts of a file whose writing never finished', async () => {
    const id = await entry();
    // What a process that stopped during an upload leaves: a part, no size, the entry RUNNING.
    const stopped = async function* () {
      yield randomBytes(PART_BYTES);
      await new Promise(() => undefined);
    };
    void writeFileBytes(db, TENANT, id, stopped());
    await expect.poll(() => partSizes(id)).toEqual([PART_BYTES]);
    expect(await storedFileSize(db, TENANT, id)).toBeNull();
    await failInterruptedFiles(allAreasExecutor(database));
    expect(await partSizes(id)).toEqual([]);
  });
});
