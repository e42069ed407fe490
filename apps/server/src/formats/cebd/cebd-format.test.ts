import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { problemText } from '../timeseries/format.js';
import { CEBD_CHUNK_RECORDS, cebdFormat, parseCebd } from './cebd-format.js';
import { CPID, cebdBlock, cebdFile, EXAMPLE_FILES, parseBytes, reading, readingBlock, record } from './fixtures.js';
import { cebdFileForRecords } from './generate.js';

const at = (line: number, path: string, column = 1) => ({ line, column, path });
const R1 = 'CEBDFile/CEBDBlock[1]/Record[1]';

describe('CEBD examples (docs/formats/examples)', () => {
  it('reads the CEBD block example: two blocks, every record, the sender as DCS', async () => {
    const { problems, blocks } = await parseBytes(readFileSync(EXAMPLE_FILES.cebd));
    expect(problems).toEqual([]);
    expect(blocks.map((b) => [b.cpid, b.blockType, b.dcs, b.location])).toEqual([
      ['NO_NSB_917600730019_EMS1', 'CEBDBlock', 'Bane NOR Ørland DCS', at(4, 'CEBDFile/CEBDBlock[1]', 3)],
      ['SE_SJ_917400012345_EMS1', 'CEBDBlock', 'Bane NOR Ørland DCS', at(13, 'CEBDFile/CEBDBlock[2]', 3)],
    ]);
    expect(blocks[0]!.records).toEqual([
      {
        periodEnd: '2026-10-01T00:05:00Z',
        activeConsumed: 0,
        activeRegenerated: 0,
        reactiveConsumed: 0,
        reactiveRegenerated: 0,
        lat: 59.91093,
        lon: 10.75228,
        tractionSystem: '02',
        quality: 127,
      },
      {
        periodEnd: '2026-10-01T00:10:00Z',
        activeConsumed: 212.5,
        activeRegenerated: 0,
        reactiveConsumed: 31.875,
        reactiveRegenerated: 0,
        lat: 59.92391,
        lon: 10.83815,
        tractionSystem: '02',
        quality: 127,
      },
      {
        periodEnd: '2026-10-01T00:15:00Z',
        activeConsumed: 287.125,
        activeRegenerated: 12.4,
        reactiveConsumed: 40.2,
        reactiveRegenerated: 0.9,
        lat: 59.94046,
        lon: 10.94761,
        tractionSystem: '02',
        quality: 127,
      },
      {
        periodEnd: '2026-10-01T00:20:00Z',
        activeConsumed: 64.02,
        activeRegenerated: 118.75,
        reactiveConsumed: 9.1,
        reactiveRegenerated: 8.3,
        lat: 59.95582,
        lon: 11.04916,
        tractionSystem: '02',
        quality: 61,
      },
      {
        periodEnd: '2026-10-01T00:30:00Z',
        activeConsumed: 0,
        activeRegenerated: 0,
        reactiveConsumed: 0,
        reactiveRegenerated: 0,
        lat: null,
        lon: null,
        tractionSystem: '02',
        quality: 56,
      },
    ]);
    expect(blocks[1]!.records.map((r) => [r.periodEnd, r.activeConsumed, r.tractionSystem, r.quality])).toEqual([
      ['2026-10-01T00:05:00Z', 150, '02', 127],
      ['2026-10-01T00:10:00Z', 0, '00', 46],
    ]);
  });

  it('differences the reading block example: four readings give three records', async () => {
    const { problems, blocks } = await parseBytes(readFileSync(EXAMPLE_FILES.readings));
    expect(problems).toEqual([]);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.blockType).toBe('ReadingBlock');
    expect(blocks[0]!.cpid).toBe(CPID);
    expect(blocks[0]!.records).toEqual([
      {
        periodEnd: '2026-10-01T00:05:00Z',
        activeConsumed: 200.5,
        activeRegenerated: 0,
        reactiveConsumed: 30.075,
        reactiveRegenerated: 0,
        lat: 63.69861,
        lon: 9.60444,
        tractionSystem: '02',
        quality: 127,
      },
      {
        periodEnd: '2026-10-01T00:10:00Z',
        activeConsumed: 258.25,
        activeRegenerated: 7.625,
        reactiveConsumed: 39,
        reactiveRegenerated: 0.5,
        lat: 63.64213,
        lon: 9.83012,
        tractionSystem: '02',
        // The 00:10 reading is uncertain: both periods it bounds are.
        quality: 61,
      },
      {
        periodEnd: '2026-10-01T00:15:00Z',
        activeConsumed: 51.5,
        activeRegenerated: 109.875,
        reactiveConsumed: 5.8,
        reactiveRegenerated: 7.75,
        lat: 63.5987,
        lon: 10.015,
        tractionSystem: '02',
        quality: 61,
      },
    ]);
  });
});

describe('CEBD problems', () => {
  const cases: [string, string, string, ReturnType<typeof at>][] = [
    [
      'an invalid number',
      cebdBlock([record({ activeConsumed: 'abc' })]),
      'Value abc is invalid for activeConsumed',
      at(4, R1),
    ],
    [
      'a comma decimal',
      cebdBlock([record({ reactiveConsumed: '1,5' })]),
      'Value 1,5 is invalid for reactiveConsumed',
      at(4, R1),
    ],
    [
      'a negative energy',
      cebdBlock([record({ activeRegenerated: '-2.5' })]),
      'Negative value -2.5 for activeRegenerated',
      at(4, R1),
    ],
    [
      'a missing attribute',
      cebdBlock([record({ reactiveRegenerated: undefined })]),
      'Attribute reactiveRegenerated is missing',
      at(4, R1),
    ],
    [
      'an unknown attribute',
      cebdBlock([record({ activeconsumed: '1' })]),
      'Unknown attribute activeconsumed',
      at(4, R1),
    ],
    ['lat outside ±90', cebdBlock([record({ lat: '90.5' })]), 'lat 90.5 is outside -90 .. 90', at(4, R1)],
    ['lon outside ±180', cebdBlock([record({ lon: '-180.01' })]), 'lon -180.01 is outside -180 .. 180', at(4, R1)],
    [
      'lat without lon',
      cebdBlock([record({ lon: undefined })]),
      'Attribute lon is missing (lat and lon come together)',
      at(4, R1),
    ],
    [
      'an unknown traction system',
      cebdBlock([record({ tractionSystem: '06' })]),
      'Unknown traction system code 06',
      at(4, R1),
    ],
    ['an unknown quality', cebdBlock([record({ quality: '100' })]), 'Unknown quality code 100', at(4, R1)],
    [
      'quality 46 with energy',
      cebdBlock([record({ quality: '46' })]),
      'Quality 46 (non-existent) needs every energy 0, but activeConsumed is 1.5',
      at(4, R1),
    ],
    [
      'a local time',
      cebdBlock([record({ periodEnd: '2026-10-01T02:05:00+02:00' })]),
      'Value 2026-10-01T02:05:00+02:00 is invalid for periodEnd',
      at(4, R1),
    ],
    [
      'an impossible date',
      cebdBlock([record({ periodEnd: '2026-02-30T00:05:00Z' })]),
      'Value 2026-02-30T00:05:00Z is invalid for periodEnd (not a real date)',
      at(4, R1),
    ],
    [
      'off the 5-minute grid',
      cebdBlock([record({ periodEnd: '2026-10-01T00:07:00Z' })]),
      'periodEnd 2026-10-01T00:07:00Z is not on a 5-minute boundary',
      at(4, R1),
    ],
    [
      'seconds off the grid',
      cebdBlock([record({ periodEnd: '2026-10-01T00:05:30Z' })]),
      'is not on a 5-minute boundary',
      at(4, R1),
    ],
    [
      'a year outside the range',
      cebdBlock([record({ periodEnd: '2071-01-01T00:05:00Z' })]),
      'periodEnd 2071-01-01T00:05:00Z is outside 1970-01-01 .. 2070-01-01',
      at(4, R1),
    ],
    [
      'a duplicate periodEnd',
      cebdBlock([record(), record()]),
      'Duplicate detected: periodEnd 2026-10-01T00:05:00Z: Record[1] of this block has the same periodEnd',
      at(5, 'CEBDFile/CEBDBlock[1]/Record[2]'),
    ],
    [
      'records out of order',
      cebdBlock([record({ periodEnd: '2026-10-01T00:10:00Z' }), record()]),
      'periodEnd 2026-10-01T00:05:00Z is before 2026-10-01T00:10:00Z of Record[1]: Records must be in ascending time',
      at(5, 'CEBDFile/CEBDBlock[1]/Record[2]'),
    ],
    [
      'a CPID of another form',
      cebdBlock([record()], '917600100015EMS1'),
      'CPID 917600100015EMS1 is not in the form NVR_VKM_EVN_EMSID',
      at(3, 'CEBDFile/CEBDBlock[1]'),
    ],
    [
      'a CPID with a short EVN',
      cebdBlock([record()], 'NO_NSB_91760010001_EMS1'),
      'is not in the form NVR_VKM_EVN_EMSID',
      at(3, 'CEBDFile/CEBDBlock[1]'),
    ],
    [
      'a wrong EVN check digit',
      cebdBlock([record()], 'NO_NSB_917600100013_EMS1'),
      'the EVN 917600100013 has a wrong check digit (expected 5)',
      at(3, 'CEBDFile/CEBDBlock[1]'),
    ],
    [
      'an empty block',
      cebdFile(`<CEBDBlock cpid="${CPID}"/>`),
      'A CEBDBlock has at least one Record',
      at(3, 'CEBDFile/CEBDBlock[1]'),
    ],
    [
      'a stray element',
      cebdFile(`<Block cpid="${CPID}"/>`),
      'Unexpected element Block (expected CEBDBlock or ReadingBlock here)',
      at(3, 'CEBDFile/Block[1]'),
    ],
    [
      'a reading in a CEBD block',
      cebdBlock([reading()]),
      'Unexpected element Reading (expected Record here)',
      at(4, 'CEBDFile/CEBDBlock[1]/Reading[1]'),
    ],
    [
      'a child of a record',
      cebdBlock([record().replace('/>', '><x/></Record>')]),
      'Unexpected element x (expected no element here)',
      at(4, `${R1}/x[1]`, record().length),
    ],
    [
      'text in a block',
      cebdFile(`<CEBDBlock cpid="${CPID}">1.5${record()}</CEBDBlock>`),
      'Unexpected text 1.5',
      { line: 3, column: 44, path: 'CEBDFile/CEBDBlock[1]' },
    ],
    [
      'a missing sender',
      cebdFile(cebdBlockBody(), 'version="1" created="2026-10-01T01:00:00Z"'),
      'Attribute sender is missing',
      at(2, 'CEBDFile'),
    ],
    [
      'a bad created instant',
      cebdFile(cebdBlockBody(), 'version="1" sender="x" created="yesterday"'),
      'Value yesterday is invalid for created',
      at(2, 'CEBDFile'),
    ],
  ];

  it.each(cases)('%s: message and location', async (_name, xml, message, location) => {
    const { problems } = await parseBytes(xml);
    expect(problems[0]!.message).toContain(message);
    expect(problems[0]!.location).toEqual(location);
  });

  const fatal: [string, string | Buffer, string, { line?: number; path?: string }][] = [
    [
      'a wrong root',
      '<CEBD xmlns="urn:railwatt:cebd:1" version="1"/>',
      'The root element is CEBD; a CEBD file has the root CEBDFile',
      { line: 1, path: 'CEBD' },
    ],
    [
      'a wrong namespace',
      '<CEBDFile xmlns="urn:other" version="1"/>',
      'The root element is CEBDFile with xmlns=urn:other',
      { line: 1, path: 'CEBDFile' },
    ],
    [
      'a prefixed root',
      '<c:CEBDFile xmlns:c="urn:railwatt:cebd:1" version="1"/>',
      'The root element is c:CEBDFile',
      { line: 1 },
    ],
    [
      'another version',
      '<CEBDFile xmlns="urn:railwatt:cebd:1" version="2"/>',
      'Version 2 is not supported',
      { line: 1 },
    ],
    [
      'a mismatched close tag',
      cebdFile(`<CEBDBlock cpid="${CPID}">\n${record()}`),
      'The file is not well-formed XML: unexpected close tag',
      { line: 5 },
    ],
    [
      'a truncated file',
      cebdBlock([record()]).slice(0, -30),
      'The file is not well-formed XML: unclosed tag: CEBDBlock',
      { line: 4 },
    ],
    [
      'a broken tag',
      cebdBlock([`<Record periodEnd="x" <`]),
      'The file is not well-formed XML',
      { line: 4, path: 'CEBDFile/CEBDBlock[1]' },
    ],
    ['not XML at all', 'periodEnd;activeConsumed\n2026-10-01T00:05:00Z;1.5\n', 'The file is not well-formed XML', {}],
    ['an empty file', '', 'The file is empty', {}],
    ['a DOCTYPE', '<!DOCTYPE x [<!ENTITY a "aaaa">]>\n<CEBDFile/>', 'A DOCTYPE is not allowed', { line: 1 }],
    [
      'another encoding',
      '<?xml version="1.0" encoding="ISO-8859-1"?>\n<CEBDFile/>',
      'declares encoding ISO-8859-1',
      { line: 1 },
    ],
    [
      'bytes that are not UTF-8',
      Buffer.concat([Buffer.from(cebdFile('').slice(0, 60)), Buffer.from([0xff, 0xfe, 0x41])]),
      'The file is not valid UTF-8',
      {},
    ],
  ];

  it.each(fatal)('%s: one problem, then reading stops', async (_name, input, message, location) => {
    const { problems, blocks } = await parseBytes(input);
    expect(problems.map((p) => p.message)).toEqual([expect.stringContaining(message)]);
    expect(problems[0]!.location).toMatchObject(location);
    // Records read before the fault may have been handed on; the problem refuses the file anyway.
    expect(blocks.flatMap((b) => b.records).length).toBeLessThanOrEqual(1);
  });

  it('names the problem with line, column and path as the data log shows it', async () => {
    const { problems } = await parseBytes(
      cebdBlock([record(), record({ periodEnd: '2026-10-01T00:10:00Z', activeConsumed: 'abc' })]),
    );
    expect(problems.map(problemText)).toEqual([
      'CEBDFile/CEBDBlock[1]/Record[2], line 5, column 1: Value abc is invalid for activeConsumed (a non-negative decimal number in kWh with at most 9 + 6 digits, e.g. 1.234)',
    ]);
  });

  it('lists every fault of a record, keeps going, and stops after maxProblems', async () => {
    const bad = (i: number) =>
      record({ periodEnd: `2026-10-01T${String(i).padStart(2, '0')}:05:00Z`, lat: '91', quality: '1' });
    const { problems, records } = await parseBytes(cebdBlock(Array.from({ length: 20 }, (_, i) => bad(i))));
    expect(problems).toHaveLength(40);
    expect(records).toEqual([]);
    const limited = await parseBytes(cebdBlock(Array.from({ length: 20 }, (_, i) => bad(i))), { maxProblems: 5 });
    expect(limited.problems).toHaveLength(5);
    expect(limited.problems[4]!.location.path).toBe('CEBDFile/CEBDBlock[1]/Record[3]');
  });

  it('checks the records of a block whose CPID is refused, but yields none of them', async () => {
    const { problems, blocks } = await parseBytes(cebdBlock([record(), record({ quality: 'x' })], 'bad'));
    expect(problems.map((p) => p.location.path)).toEqual(['CEBDFile/CEBDBlock[1]', 'CEBDFile/CEBDBlock[1]/Record[2]']);
    expect(blocks).toEqual([]);
  });

  describe('duplicates across blocks (calls.md §8 "Duplicate detected")', () => {
    const at5 = (minutes: number) => new Date(Date.UTC(2026, 9, 1, 0, minutes)).toISOString().replace('.000', '');
    const block = (name: 'CEBDBlock' | 'ReadingBlock', minutes: number[], cpid = CPID) =>
      `<${name} cpid="${cpid}">\n${minutes
        .map((m) =>
          name === 'CEBDBlock'
            ? record({ periodEnd: at5(m) })
            : reading({ time: at5(m), activeConsumed: String(m), reactiveConsumed: String(m) }),
        )
        .join('\n')}\n</${name}>`;

    it('refuses a second block of the same CPID and periods once, with the count, and hands none of its records on', async () => {
      const file = cebdFile(`${block('CEBDBlock', [5, 10, 15])}\n${block('CEBDBlock', [5, 10, 15])}`);
      const { problems, records } = await parseBytes(file);
      expect(problems.map(problemText)).toEqual([
        `CEBDFile/CEBDBlock[2]/Record[1], line 9, column 1: Duplicate detected: Records of CPID ${CPID} state the 3 periods ending ${at5(5)} .. ${at5(15)}, which an earlier block of this CPID already states`,
      ]);
      // The intake never sees a period twice (it would store it twice in one statement).
      expect(records.map((r) => r.periodEnd)).toEqual([at5(5), at5(10), at5(15)]);
    });

    it('finds one repeated period among new ones, in reading blocks too, at any chunking', async () => {
      for (const chunkSize of [0, 7]) {
        const cebd = await parseBytes(cebdFile(`${block('CEBDBlock', [5, 10])}\n${block('CEBDBlock', [10, 20, 25])}`), {
          chunkSize,
        });
        expect(cebd.problems.map((p) => p.message)).toEqual([
          `Duplicate detected: Records of CPID ${CPID} state the period ending ${at5(10)}, which an earlier block of this CPID already states`,
        ]);
        // Readings at 0, 5, 10 give the periods ending 5 and 10; readings 5, 10, 15 repeat 10.
        const readings = await parseBytes(
          cebdFile(`${block('ReadingBlock', [0, 5, 10])}\n${block('ReadingBlock', [5, 10, 15])}`),
          { chunkSize },
        );
        expect(readings.problems.map((p) => p.message)).toEqual([
          `Duplicate detected: Readings of CPID ${CPID} state the period ending ${at5(10)}, which an earlier block of this CPID already states`,
        ]);
      }
    });

    it('accepts the same periods for another CPID, and a CPID continued in a later block', async () => {
      const other = 'NO_NSB_917600100023_EMS1';
      const { problems, records } = await parseBytes(
        cebdFile(
          [
            block('CEBDBlock', [5, 10]),
            block('CEBDBlock', [5, 10], other),
            block('CEBDBlock', [15, 20]),
            // A reading block's base reading (at 20) states no period: it continues the block before.
            block('ReadingBlock', [20, 25]),
            // A day 150 periods later: the bits of another word of the map.
            block('CEBDBlock', [5 + 150 * 5]),
          ].join('\n'),
        ),
      );
      expect(problems).toEqual([]);
      expect(records).toHaveLength(8);
    });
  });

  it('accepts comments, whitespace, a BOM, xsi:schemaLocation and a missing quality (127)', async () => {
    const xml = cebdFile(
      `<!-- a comment -->\n<CEBDBlock cpid="${CPID}">\n  ${record({ quality: undefined, lat: undefined, lon: undefined })}\n</CEBDBlock>`,
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:railwatt:cebd:1 cebd.xsd" version="1" sender="s" created="2026-10-01T00:00:00Z"',
    );
    const { problems, records } = await parseBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)]));
    expect(problems).toEqual([]);
    expect(records).toEqual([expect.objectContaining({ quality: 127, lat: null, lon: null, activeConsumed: 1.5 })]);
  });
});

function cebdBlockBody(): string {
  return `<CEBDBlock cpid="${CPID}">\n${record()}\n</CEBDBlock>`;
}

describe('CEBD reading blocks', () => {
  const t = (minutes: number) => new Date(Date.UTC(2026, 9, 1, 0, minutes)).toISOString().replace('.000', '');
  const R = (n: number) => `CEBDFile/ReadingBlock[1]/Reading[${n}]`;

  it('differences registers without float noise', async () => {
    const { problems, records } = await parseBytes(
      readingBlock([
        reading({
          time: t(0),
          activeConsumed: '999999999.999999',
          activeRegenerated: '0.1',
          reactiveConsumed: '0.2',
          reactiveRegenerated: '0',
        }),
        reading({
          time: t(5),
          activeConsumed: '999999999.999999',
          activeRegenerated: '0.3',
          reactiveConsumed: '0.3',
          reactiveRegenerated: '0.000001',
        }),
      ]),
    );
    expect(problems).toEqual([]);
    expect(
      records.map((r) => [
        r.periodEnd,
        r.activeConsumed,
        r.activeRegenerated,
        r.reactiveConsumed,
        r.reactiveRegenerated,
      ]),
    ).toEqual([[t(5), 0, 0.2, 0.1, 0.000001]]);
  });

  it('refuses a gap, naming the reading, and goes on from it', async () => {
    const { problems, records } = await parseBytes(
      readingBlock([
        reading({ time: t(0) }),
        reading({ time: t(5) }),
        reading({ time: t(20) }),
        reading({ time: t(25) }),
      ]),
    );
    expect(problems).toEqual([
      {
        message: `Reading at ${t(20)} is 15 minutes after the previous reading at ${t(5)}: readings are 5 minutes apart (after a gap, start a new ReadingBlock)`,
        location: at(6, R(3)),
      },
    ]);
    expect(records.map((r) => r.periodEnd)).toEqual([t(5), t(25)]);
  });

  it('refuses a decreasing register, naming the reading and the register', async () => {
    const { problems } = await parseBytes(
      readingBlock([
        reading({ time: t(0), reactiveRegenerated: '10' }),
        reading({ time: t(5), reactiveRegenerated: '9.5' }),
      ]),
    );
    expect(problems).toEqual([
      {
        message: `Reading at ${t(5)}: reactiveRegenerated decreases from 10 to 9.5 (registers only grow; after a meter reset or exchange, start a new ReadingBlock)`,
        location: at(5, R(2)),
      },
    ]);
  });

  it('refuses duplicates, disorder, quality 46 and a block of one reading', async () => {
    const dup = await parseBytes(readingBlock([reading({ time: t(0) }), reading({ time: t(0) })]));
    expect(dup.problems.map((p) => p.message)).toEqual([
      `Duplicate detected: time ${t(0)}: Reading[1] of this block has the same time`,
    ]);
    const back = await parseBytes(readingBlock([reading({ time: t(5) }), reading({ time: t(0) })]));
    expect(back.problems[0]!.message).toBe(
      `time ${t(0)} is before ${t(5)} of Reading[1]: Readings must be in ascending time`,
    );
    const q46 = await parseBytes(readingBlock([reading({ time: t(0) }), reading({ time: t(5), quality: '46' })]));
    expect(q46.problems[0]!.message).toContain('A Reading cannot have quality 46');
    const one = await parseBytes(readingBlock([reading()]));
    expect(one.problems).toEqual([
      { message: expect.stringContaining('at least two Readings'), location: at(3, 'CEBDFile/ReadingBlock[1]') },
    ]);
  });

  it('starts again after a reading it could not read, without a second problem', async () => {
    const { problems, records } = await parseBytes(
      readingBlock([
        reading({ time: t(0) }),
        reading({ time: t(5), lat: 'x' }),
        reading({ time: t(10) }),
        reading({ time: t(15) }),
      ]),
    );
    expect(problems.map((p) => p.location.path)).toEqual([R(2)]);
    expect(records.map((r) => r.periodEnd)).toEqual([t(15)]);
  });
});

describe('CEBD streaming', () => {
  it('keeps a multi-byte sender whole whatever the chunk boundaries', async () => {
    const xml = cebdFile(cebdBlockBody(), 'version="1" sender="Bane NOR Ørland ✓ 𝄞" created="2026-10-01T01:00:00Z"');
    for (let size = 1; size <= 9; size++) {
      const { problems, blocks } = await parseBytes(xml, { chunkSize: size });
      expect(problems).toEqual([]);
      expect(blocks[0]!.dcs).toBe('Bane NOR Ørland ✓ 𝄞');
    }
  });

  it('reports the column of a problem after multi-byte characters in characters, not bytes', async () => {
    const xml = cebdFile(`<CEBDBlock cpid="${CPID}"><!--ØØØ-->${record({ quality: '9' })}</CEBDBlock>`);
    const { problems } = await parseBytes(xml, { chunkSize: 3 });
    expect(problems[0]!.location).toEqual({ line: 3, column: 54, path: R1 });
  });

  it('hands on at most 5,000 records per item, the same CPID in several chunks', async () => {
    const bytes = cebdFileForRecords(12_345);
    const { problems, blocks, records } = await parseBytes(bytes, { chunkSize: 65_536 });
    expect(problems).toEqual([]);
    expect(records).toHaveLength(12_345);
    expect(Math.max(...blocks.map((b) => b.records.length))).toBeLessThanOrEqual(CEBD_CHUNK_RECORDS);
    const big = cebdFile(
      `<CEBDBlock cpid="${CPID}">\n${Array.from({ length: 12_000 }, (_, i) => record({ periodEnd: new Date(Date.UTC(2026, 0, 1) + (i + 1) * 300_000).toISOString().replace('.000', '') })).join('\n')}\n</CEBDBlock>`,
    );
    const one = await parseBytes(big);
    expect(one.blocks.map((b) => [b.cpid, b.records.length])).toEqual([
      [CPID, 5_000],
      [CPID, 5_000],
      [CPID, 2_000],
    ]);
  });

  it('reads the input only as fast as the items are taken (no read-ahead of the file)', async () => {
    const bytes = cebdFileForRecords(20_000);
    let pulled = 0;
    async function* input() {
      for (let at = 0; at < bytes.length; at += 16_384) {
        pulled += 1;
        yield bytes.subarray(at, at + 16_384);
      }
    }
    const total = Math.ceil(bytes.length / 16_384);
    const items = parseCebd(input(), { timeZone: 'UTC' });
    const first = await items.next();
    expect(first.value).toMatchObject({ kind: 'cebd' });
    expect(pulled).toBeLessThan(total / 10);
    await items.return(undefined);
  });

  it('refuses a token longer than 1,000,000 characters instead of buffering it', async () => {
    const { problems } = await parseBytes(cebdFile(`<CEBDBlock cpid="${'A'.repeat(1_100_000)}">`), {
      chunkSize: 65_536,
    });
    expect(problems.map((p) => p.message)).toEqual([
      'A tag, attribute value, comment or text is longer than 1,000,000 characters',
    ]);
  });

  it('stops at elements nested deeper than 16 levels', async () => {
    const { problems } = await parseBytes(cebdFile(`${'<a>'.repeat(100_000)}`));
    expect(problems.map((p) => p.message)).toEqual([
      'Unexpected element a (expected CEBDBlock or ReadingBlock here)',
      'Elements are nested deeper than 16 levels',
    ]);
  });

  it('detects CEBD files by their root or namespace, not by .xml alone', () => {
    expect(cebdFormat.name).toBe('cebd');
    expect(cebdFormat.detect('day.xml', readFileSync(EXAMPLE_FILES.cebd))).toBe(true);
    expect(cebdFormat.detect('upload.bin', Buffer.from('<c:CEBDFile xmlns:c="x">'))).toBe(true);
    expect(
      cebdFormat.detect('metered.xml', Buffer.from('<?xml version="1.0"?><ValidatedMeteredData_12 xmlns="urn:ebix"/>')),
    ).toBe(false);
    expect(cebdFormat.detect('prices.csv', Buffer.from('a;b\n1;2'))).toBe(false);
  });
});
