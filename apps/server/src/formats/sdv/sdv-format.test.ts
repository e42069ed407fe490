import { describe, expect, it } from 'vitest';
import { fixture, parseWith } from '../timeseries/format-test-helpers.js';
import { sdvFormat } from './sdv-format.js';
import { writeSdv } from './sdv-writer.js';

const valid = fixture(new URL('./', import.meta.url), 'validated-metered-data.sdv').toString('utf8');
const parse = (input: string | Buffer, options?: { chunkSize?: number; maxProblems?: number }) =>
  parseWith(sdvFormat, input, options);
const problemsOf = async (text: string) => (await parse(text)).problems;

describe('sdv intake: valid files', () => {
  it('reads each MeteringData as a PT15M supply_energy series in kWh, Condition as quality', async () => {
    const { series, problems } = await parse(valid);
    expect(problems).toEqual([]);
    expect(series).toEqual([
      {
        typeName: 'supply_energy',
        identifier: 'CH1012501234500000000000000012345',
        resolution: 'PT15M',
        unit: 'kWh',
        location: { line: 21, column: 21, path: 'ValidatedMeteredData_12/MeteringData[1]' },
        points: [
          { start: '2026-09-30T22:00:00.000Z', value: 152.25, quality: 127 },
          { start: '2026-09-30T22:15:00.000Z', value: 148.5, quality: 61 },
          { start: '2026-09-30T22:30:00.000Z', value: 150, quality: 56 },
          { start: '2026-09-30T22:45:00.000Z', value: null, quality: 46 },
        ],
      },
      {
        typeName: 'supply_energy',
        identifier: 'CH-SUB-OLTEN-01',
        resolution: 'PT15M',
        unit: 'kWh',
        location: { line: 37, column: 21, path: 'ValidatedMeteredData_12/MeteringData[2]' },
        // +02:00 is read; MWh become exact kWh; the points come in time order whatever the file's.
        points: [
          { start: '2026-09-30T22:00:00.000Z', value: 1100, quality: 127 },
          { start: '2026-09-30T22:15:00.000Z', value: 1234.5, quality: 127 },
        ],
      },
    ]);
  });

  it('reads any namespace prefix (or none) and any chunking', async () => {
    const expected = (await parse(valid)).series.map((s) => s.points);
    const variants = [
      valid.replace(/rsm:/g, '').replace('xmlns:rsm=', 'xmlns='),
      valid.replace(/rsm:/g, 'ns2:').replace('xmlns:rsm=', 'xmlns:ns2='),
    ];
    for (const text of variants) expect((await parse(text)).series.map((s) => s.points)).toEqual(expected);
    expect((await parse(valid, { chunkSize: 1 })).series.map((s) => s.points)).toEqual(expected);
  });

  it('emits long series in chunks of at most 5,000 points', async () => {
    const values = Array.from({ length: 6000 }, (_, i) => i / 4);
    const text = writeSdv({
      sender: 'A',
      receiver: 'B',
      documentId: 'D',
      created: '2026-10-02T05:00:00Z',
      series: [{ meteringPoint: 'MP1', start: '2026-08-31T22:00:00Z', values }],
    });
    const { series, problems } = await parse(text);
    expect(problems).toEqual([]);
    expect(series.map((s) => s.points.length)).toEqual([5000, 1000]);
    expect(series[1]?.points[0]).toEqual({ start: '2026-10-23T00:00:00.000Z', value: 1250, quality: 127 });
  });

  it('detects .sdv files and ValidatedMeteredData XML', () => {
    expect(sdvFormat.detect('zurich.sdv', Buffer.from(''))).toBe(true);
    expect(sdvFormat.detect('zurich.xml', Buffer.from(valid.slice(0, 400)))).toBe(true);
    expect(sdvFormat.detect('cebd.xml', Buffer.from('<CEBDFile/>'))).toBe(false);
  });
});

describe('sdv intake: files that cannot be mapped', () => {
  const obs =
    '<rsm:Observation><rsm:Position><rsm:Sequence>3</rsm:Sequence></rsm:Position><rsm:Volume>150</rsm:Volume>';

  it('names the line, column and element path of a bad value, condition or position', async () => {
    expect(await problemsOf(valid.replace('<rsm:Volume>150<', '<rsm:Volume>1e5<'))).toEqual([
      'ValidatedMeteredData_12/MeteringData[1]/Observation[3]/Volume, line 34, column 93: Value 1e5 is invalid',
    ]);
    expect(await problemsOf(valid.replace('<rsm:Condition>56<', '<rsm:Condition>99<'))).toEqual([
      'ValidatedMeteredData_12/MeteringData[1]/Observation[3]/Condition, line 34, column 124: Condition 99 is not supported (127, 61, 56, 46, 21)',
    ]);
    expect(await problemsOf(valid.replace(obs, obs.replace('>3<', '>2<')))).toEqual([
      'ValidatedMeteredData_12/MeteringData[1]/Observation[3]/Position/Sequence, line 34, column 50: Position 2 is given twice',
    ]);
    expect(await problemsOf(valid.replace(obs, obs.replace('>3<', '>9<')))).toEqual([
      'ValidatedMeteredData_12/MeteringData[1]/Observation[3]/Position/Sequence, line 34, column 50: Position 9 lies outside the interval (1..4)',
    ]);
  });

  it('refuses a MeteringData with fewer observations than its interval holds', async () => {
    const missing = valid.replace(/\s*<rsm:Observation><rsm:Position><rsm:Sequence>4<.*/, '');
    expect(await problemsOf(missing)).toEqual([
      'ValidatedMeteredData_12/MeteringData[1], line 21, column 21: MeteringData has 3 observations, but its interval holds 4 at PT15M',
    ]);
  });

  it('refuses a MeteringData without metering point, interval, known resolution or energy unit', async () => {
    expect(await problemsOf(valid.replace('<rsm:MeteringPointID>CH-SUB-OLTEN-01</rsm:MeteringPointID>', ''))).toEqual([
      'ValidatedMeteredData_12/MeteringData[2], line 37, column 21: MeteringData names no metering point (MeteringPointID)',
    ]);
    expect(await problemsOf(valid.replace('2026-09-30T22:00:00Z<', '2026-09-31T22:00:00Z<'))).toEqual([
      'ValidatedMeteredData_12/MeteringData[1]/Interval/StartDateTime, line 24, column 26: StartDateTime 2026-09-31T22:00:00Z is invalid',
    ]);
    expect(await problemsOf(valid.replace('<rsm:Resolution>15<', '<rsm:Resolution>10<'))).toEqual([
      'ValidatedMeteredData_12/MeteringData[1]/Resolution/Resolution, line 27, column 37: Resolution 10 MIN is not supported (15 MIN, 5 MIN, 60 MIN)',
    ]);
    expect(await problemsOf(valid.replace('<rsm:MeasureUnit>MWH<', '<rsm:MeasureUnit>KVARH<'))).toEqual([
      'ValidatedMeteredData_12/MeteringData[2]/Product/MeasureUnit, line 44, column 35: Unit KVARH is not supported (KWH, MWH, WH)',
    ]);
  });

  it('refuses XML that is not well-formed, another document, or one without MeteringData', async () => {
    expect(await problemsOf(valid.replace('</rsm:Sender>', ''))).toEqual([
      'ValidatedMeteredData_12/ValidatedMeteredData_HeaderInformation, line 20, column 48: The XML is not well-formed: unexpected close tag.',
    ]);
    expect(await problemsOf('<CEBDFile><CEBDBlock/></CEBDFile>')).toEqual([
      'CEBDFile, line 1, column 11: The root element CEBDFile is not an ebIX ValidatedMeteredData document',
    ]);
    expect(await problemsOf('<ValidatedMeteredData/>')).toEqual(['The document holds no MeteringData']);
    expect(await problemsOf(`<ValidatedMeteredData>${'<a>'.repeat(40)}`)).toEqual([
      'line 1, column 119: Elements nest deeper than 32 levels',
    ]);
    expect(await problemsOf('')).toEqual([
      'line 1, column 1: The XML is not well-formed: document must contain a root element.',
    ]);
  });

  it('stops after maxProblems', async () => {
    const bad = valid.replace(/<rsm:Volume>[^<]*</g, '<rsm:Volume>x<');
    expect((await parse(bad)).problems.length).toBeGreaterThan(2);
    expect((await parse(bad, { maxProblems: 2 })).problems).toHaveLength(2);
  });
});
