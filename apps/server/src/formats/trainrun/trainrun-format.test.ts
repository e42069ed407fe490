import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../../test/tools.js';
import { problemText, type ParseOptions } from '../timeseries/format.js';
import { parseTrainRuns, readTrainRuns, trainRunFormat } from './trainrun-format.js';
import { generateTrainRunFile, generateTrainRuns, trainRunsXml, type TrainRunFileSpec } from './trainrun-generator.js';

const OPTIONS: ParseOptions = { timeZone: 'Europe/Oslo' };
const EXAMPLE = new URL('../../../../../docs/formats/examples/train-runs-example.xml', import.meta.url);
const XSD = fileURLToPath(new URL('../../../../../docs/formats/train-runs.xsd', import.meta.url));
/** libxml2's xmllint checks files against the published schema (skipped without it, a failure on CI). */
const HAS_XMLLINT = requireTool('xmllint', 'the train-run XSD check');

/** The bytes in chunks of `size` (1 splits every multi-byte character). */
async function* chunks(bytes: Buffer | string, size = 64): AsyncGenerator<Buffer> {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  for (let i = 0; i < buffer.length; i += size) yield buffer.subarray(i, i + size);
}

const read = (text: string | Buffer, size?: number) => readTrainRuns(chunks(text, size), OPTIONS);
const messages = async (text: string) => (await read(text)).problems.map(problemText);

export const SPEC: TrainRunFileSpec = {
  railwayUndertakings: ['984661185', 'CargoNet AS'],
  trafficCategories: ['Passenger, regional', 'Freight, bulk'],
  trainProfiles: ['Regional passenger'],
  units: [
    { evn: '947600740015', grossWeight: 228.5 },
    { evn: '917600180017', grossWeight: 84 },
  ],
  wagons: [
    { evn: '337654901012', grossWeight: 312.4 },
    { evn: '337654901020', grossWeight: 298.1 },
  ],
  wagonsPerRun: 1,
  days: ['2026-10-01', '2026-10-02'],
  routes: [
    { places: ['Oslo S', 'Bergen'], km: 496 },
    { places: ['Alnabru', 'Kornsjø', 'Oslo S'], km: 340 },
  ],
  runsPerDay: 3,
};

const run = (attributes: string, body = VALID_BODY) =>
  `<TrainRuns xmlns="urn:railwatt:trainrun:1"><TrainRun ${attributes}>${body}</TrainRun></TrainRuns>`;
const IDENTITY = 'trainNumber="41" operatingDay="2026-10-01" railwayUndertaking="984661185"';
const FULL = `action="input" ${IDENTITY} trafficCategory="Passenger, regional" departure="2026-10-01T06:00:00Z" arrival="2026-10-01T07:00:00Z" grossTonneKm="1000"`;
const VALID_BODY =
  '<Route><Place name="Oslo S"/><Place name="Bergen"/></Route><Composition><Vehicle evn="947600740015" grossWeight="228.5"/></Composition>';

describe('train-run format', () => {
  it('reads the documented example', async () => {
    const { runs, problems } = await read(readFileSync(EXAMPLE));
    expect(problems).toEqual([]);
    expect(runs.map((r) => [r.action, r.trainNumber, r.railwayUndertaking])).toEqual([
      ['input', '41', '984661185'],
      ['input', '5501', 'CargoNet AS'],
      ['correction', '1705', '984661185'],
      ['delete', '1707', '984661185'],
    ]);
    expect(runs[1]).toMatchObject({
      operatingDay: '2026-10-01',
      trafficCategory: 'Freight, intermodal',
      trainProfile: 'Intermodal freight',
      // Offsets become UTC.
      departure: '2026-10-01T19:40:00.000Z',
      arrival: '2026-10-02T03:10:00.000Z',
      grossTonneKm: 551000,
      route: ['Alnabru', 'Trondheim S'],
    });
    expect(runs[1]!.composition[1]).toEqual({ evn: '337654901012', grossWeightTonnes: 312.4, position: 2 });
    // Positions default to the order in the file.
    expect(runs[2]!.composition).toEqual([{ evn: '947600750014', grossWeightTonnes: 213, position: 1 }]);
    expect(runs[3]).toMatchObject({ route: [], composition: [] });
    expect(runs[3]!.departure).toBeUndefined();
    expect(runs[0]!.location).toMatchObject({ path: 'TrainRuns/TrainRun[1]', line: 5 });
  });

  it('reads the same runs whatever the chunk size, also with characters split between chunks', async () => {
    const whole = await read(readFileSync(EXAMPLE), 1 << 20);
    expect(await read(readFileSync(EXAMPLE), 1)).toEqual(whole);
    expect(await read(readFileSync(EXAMPLE), 7)).toEqual(whole);
    expect(whole.runs[1]!.route).toEqual(['Alnabru', 'Trondheim S']);
  });

  it.skipIf(!HAS_XMLLINT)('publishes a schema that the example and generated files meet', () => {
    const dir = mkdtempSync(join(tmpdir(), 'train-runs-'));
    try {
      const generated = join(dir, 'generated.xml');
      writeFileSync(generated, generateTrainRunFile(SPEC));
      for (const file of [fileURLToPath(EXAMPLE), generated]) {
        const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
        expect(lint.stderr).toContain('validates');
        expect(lint.status).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('detects train-run files by namespace or root element', () => {
    const head = Buffer.from(readFileSync(EXAMPLE).subarray(0, 4096));
    expect(trainRunFormat.name).toBe('trainrun');
    expect(trainRunFormat.detect('anything.dat', head)).toBe(true);
    expect(trainRunFormat.detect('runs.xml', Buffer.from('<?xml version="1.0"?><TrainRuns>'))).toBe(true);
    expect(trainRunFormat.detect('cebd.xml', Buffer.from('<CEBDFile xmlns="urn:x">'))).toBe(false);
  });

  it('names the attribute, the element path, line and column of bad values', async () => {
    const text = run(
      FULL,
      '<Route><Place name="Oslo S"/><Place name="Bergen"/></Route><Composition>' +
        '<Vehicle evn="947600740015" grossWeight="heavy"/>\n<Vehicle evn="12345" grossWeight="-3"/>' +
        '<Vehicle evn="947600740016" grossWeight="1"/></Composition>',
    );
    expect(await messages(text)).toEqual([
      'TrainRuns/TrainRun[1]/Composition/Vehicle[1], line 1, column 337: Value heavy is invalid for grossWeight',
      'TrainRuns/TrainRun[1]/Composition/Vehicle[2], line 2, column 1: EVN 12345 must be exactly 12 digits',
      'TrainRuns/TrainRun[1]/Composition/Vehicle[2], line 2, column 1: grossWeight must be greater than 0, not -3',
      'TrainRuns/TrainRun[1]/Composition/Vehicle[3], line 2, column 40: EVN 947600740016 has a wrong check digit',
    ]);
  });

  it('refuses missing and bad run attributes, and runs that end before they start', async () => {
    expect(await messages(run('action="input" trainNumber="41"'))).toEqual([
      'TrainRuns/TrainRun[1], line 1, column 44: Attribute operatingDay is required',
      'TrainRuns/TrainRun[1], line 1, column 44: Attribute railwayUndertaking is required',
      'TrainRuns/TrainRun[1], line 1, column 44: Attribute trafficCategory is required',
      'TrainRuns/TrainRun[1], line 1, column 44: Attribute departure is required',
      'TrainRuns/TrainRun[1], line 1, column 44: Attribute arrival is required',
      'TrainRuns/TrainRun[1], line 1, column 44: Attribute grossTonneKm is required',
    ]);
    const bad = await messages(
      run(FULL.replace('2026-10-01"', '2026-02-30"').replace('1000', '-1').replace('action="input"', 'action="x"')),
    );
    expect(bad.map((m) => m.replace(/^.*column \d+: /, ''))).toEqual([
      'Value x is invalid for action (input, correction or delete)',
      'Value 2026-02-30 is invalid for operatingDay',
    ]);
    const tail = async (text: string) => (await messages(text)).map((m) => m.replace(/^.*column \d+: /, ''));
    expect(await tail(run(FULL.replace('1000', '-1')))).toEqual(['grossTonneKm must not be negative, not -1']);
    expect(await tail(run(FULL.replace('T07:00:00Z', 'T05:59:00Z')))).toEqual([
      'Arrival 2026-10-01T05:59:00.000Z is not after departure 2026-10-01T06:00:00.000Z',
    ]);
    expect(await tail(run(FULL.replace('T07:00:00Z', 'T07:00:00')))).toEqual([
      'Value 2026-10-01T07:00:00 is invalid for arrival',
    ]);
    expect(await tail(run(FULL.replace(/2026-10-01T0/g, '2026-10-05T0')))).toEqual([
      'Departure 2026-10-05T06:00:00.000Z is not on operating day 2026-10-01 (or the night after)',
    ]);
    expect(await tail(run(`${FULL} colour="red"`))).toEqual(['Unknown attribute colour on TrainRun']);
  });

  it('refuses duplicate vehicles and positions, and incomplete runs', async () => {
    const tail = async (text: string) => (await messages(text)).map((m) => m.replace(/^.*column \d+: /, ''));
    const twice =
      '<Route><Place name="A"/><Place name="B"/></Route><Composition>' +
      '<Vehicle evn="947600740015" grossWeight="1"/><Vehicle evn="947600740015" grossWeight="2"/>' +
      '<Vehicle evn="917600180017" grossWeight="2" position="1"/></Composition>';
    expect(await tail(run(FULL, twice))).toEqual([
      'Vehicle 947600740015 appears twice in the composition',
      'Position 1 appears twice in the composition',
    ]);
    expect(await tail(run(FULL, '<Route><Place name="A"/></Route>'))).toEqual([
      'A Route with at least two places (origin and destination) is required',
      'A Composition with at least one vehicle is required',
    ]);
    expect(await tail(run(FULL, `${VALID_BODY}<Wagon/>`))).toEqual(['Unexpected element Wagon in TrainRun[1]']);
    expect(await tail(run(FULL, `${VALID_BODY}<constructor/>`))).toEqual([
      'Unexpected element constructor in TrainRun[1]',
    ]);
    // Extensions in another namespace are skipped.
    expect(await tail(run(FULL, `${VALID_BODY}<x:Note xmlns:x="urn:other"><x:Text/></x:Note>`))).toEqual([]);
  });

  it('reads a delete from its identity alone', async () => {
    const { runs, problems } = await read(run(`action="delete" ${IDENTITY}`, ''));
    expect(problems).toEqual([]);
    expect(runs).toMatchObject([{ action: 'delete', trainNumber: '41', route: [], composition: [] }]);
  });

  it('refuses what is not a train-run file at all', async () => {
    expect(await messages('')).toEqual([
      'line 1, column 1: The file is not well-formed XML: document must contain a root element.',
    ]);
    expect(await messages('<CEBDFile/>')).toEqual([
      'line 1, column 1: The root element must be TrainRuns in namespace urn:railwatt:trainrun:1, not CEBDFile',
    ]);
    expect(await messages('<TrainRuns xmlns="urn:railwatt:trainrun:1"/>')).toEqual(['The file holds no TrainRun']);
    expect((await messages('<!DOCTYPE x [<!ENTITY a "b">]><TrainRuns xmlns="urn:railwatt:trainrun:1"/>'))[0]).toContain(
      'A DOCTYPE is not allowed',
    );
    const latin1 = Buffer.concat([Buffer.from(run(FULL).replace('Bergen', 'B')), Buffer.from([0xe6])]);
    expect((await read(latin1)).problems.map((p) => p.message)).toContain('The file is not valid UTF-8');
    expect((await messages(run(FULL).replace('</TrainRuns>', '')))[0]).toMatch(/not well-formed XML/);
  });

  it('stops after maxProblems', async () => {
    const many = `<TrainRuns xmlns="urn:railwatt:trainrun:1">${'<TrainRun/>'.repeat(50)}</TrainRuns>`;
    const items = [];
    for await (const item of parseTrainRuns(chunks(many), { ...OPTIONS, maxProblems: 5 })) items.push(item);
    expect(items).toHaveLength(6);
    expect(items[5]).toMatchObject({ problem: { message: 'Reading stopped after 5 problems' } });
  });

  it('round-trips generated files, deterministically', async () => {
    const file = generateTrainRunFile(SPEC);
    expect(generateTrainRunFile(SPEC)).toBe(file);
    const { runs, problems } = await read(file);
    expect(problems).toEqual([]);
    expect(runs.map(({ location: _, ...r }) => r)).toEqual(
      generateTrainRuns(SPEC).map((r) => ({ ...r, composition: r.composition })),
    );
    expect(runs).toHaveLength(6);
    const special = trainRunsXml([{ ...generateTrainRuns(SPEC)[0]!, route: ['A & "B" <C>', 'D'] }]);
    expect((await read(special)).runs[0]!.route).toEqual(['A & "B" <C>', 'D']);
  });
});

describe('train-run format never throws', () => {
  const collect = async (bytes: Uint8Array, size: number) => {
    const items = [];
    for await (const item of parseTrainRuns(chunks(Buffer.from(bytes), size), OPTIONS)) items.push(item);
    return items;
  };

  it('on arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), fc.integer({ min: 1, max: 64 }), async (bytes, size) => {
        const items = await collect(bytes, size);
        expect(items.some((i) => i.kind === 'problem')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('on mutations of a valid file (bytes replaced, inserted, cut)', async () => {
    const valid = Buffer.from(generateTrainRunFile({ ...SPEC, days: ['2026-10-01'], runsPerDay: 2 }));
    const mutation = fc.record({
      at: fc.nat({ max: valid.length - 1 }),
      bytes: fc.uint8Array({ minLength: 0, maxLength: 8 }),
      remove: fc.nat({ max: 8 }),
    });
    const xmlish = fc.constantFrom(...['<', '>', '"', '/', '&', '=', ' ', '-', '1', 'é', '\u{1F686}', ']]>', '<!--']);
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        fc.array(xmlish, { maxLength: 3 }),
        fc.integer({ min: 1, max: 97 }),
        async (mutations, inserts, size) => {
          let bytes = valid;
          for (const m of mutations) {
            const at = Math.min(m.at, bytes.length);
            bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(m.bytes), bytes.subarray(at + m.remove)]);
          }
          if (inserts.length)
            bytes = Buffer.concat([bytes.subarray(0, 200), Buffer.from(inserts.join('')), bytes.subarray(200)]);
          const items = await collect(bytes, size);
          // Every item is a run or a problem with a message; runs that come out are whole.
          for (const item of items) {
            if (item.kind === 'problem') expect(item.problem.message).toBeTruthy();
            else if (item.kind === 'trainrun') expect(item.run.trainNumber).toBeTruthy();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
