import { describe, expect, it } from 'vitest';
import { fixture, parseWith } from '../timeseries/format-test-helpers.js';
import { utiltsFormat } from './utilts-format.js';
import { writeUtilts } from './utilts-writer.js';

const read = (name: string) => fixture(new URL('./', import.meta.url), name);
const parse = (input: string | Buffer, options?: { chunkSize?: number; maxProblems?: number }) =>
  parseWith(utiltsFormat, input, options);

const hourly = (start: string, values: [number | null, number][]) =>
  values.map(([value, quality], i) => ({
    start: new Date(Date.parse(start) + i * 3_600_000).toISOString(),
    value,
    quality,
  }));

describe('UTILTS intake: valid files', () => {
  it('reads a file written on one line: period, resolution, QTY+31 as estimated, STS Z02 as uncertain', async () => {
    const { series, problems } = await parse(read('one-line.edi'));
    expect(problems).toEqual([]);
    expect(series).toEqual([
      {
        typeName: 'supply_energy',
        identifier: '707057500000000017',
        resolution: 'PT1H',
        unit: 'kWh',
        location: { segment: 8, tag: 'LOC', line: 1 },
        points: hourly('2026-10-01T00:00:00Z', [
          [812.5, 127],
          [790, 127],
          [801.25, 56],
          [0, 61],
        ]),
      },
    ]);
  });

  it('reads UNA, released separators, DTM+735, offsets on dates, MWh in kWh and a derived resolution', async () => {
    const { series, problems } = await parse(read('multi-line-una.edi'));
    expect(problems).toEqual([]);
    expect(series.map((s) => [s.identifier, s.resolution, s.location.line])).toEqual([
      ['707057500000000017', 'PT15M', 10],
      // LOC+172+SUB?+WEST?:1 : the released + and : belong to the name.
      ['SUB+WEST:1', 'PT15M', 24],
    ]);
    // DTM+735:?+0100 puts 00:00 at 23:00Z; MWH values are exact kWh, STS Z03 estimated, Z04 non-existent.
    expect(series[0]?.points).toEqual([
      { start: '2026-09-30T23:00:00.000Z', value: 212.5, quality: 127 },
      { start: '2026-09-30T23:15:00.000Z', value: 200, quality: 56 },
      { start: '2026-09-30T23:30:00.000Z', value: null, quality: 46 },
      { start: '2026-09-30T23:45:00.000Z', value: 190, quality: 127 },
    ]);
    // ?+02 on the dates wins over the message's offset; a comma decimal mark reads too.
    expect(series[1]?.points.map((p) => [p.start, p.value])).toEqual([
      ['2026-09-30T22:00:00.000Z', 1.5],
      ['2026-09-30T22:15:00.000Z', 2.5],
      ['2026-09-30T22:30:00.000Z', 3.5],
      ['2026-09-30T22:45:00.000Z', 4.5],
    ]);
  });

  it('reads the same series whatever the chunks, line breaks or wrapping', async () => {
    const bytes = read('multi-line-una.edi');
    const expected = await parse(bytes);
    const text = bytes.toString('utf8');
    const oneLine = text.replace(/\n/g, '');
    for (const variant of [
      await parse(bytes, { chunkSize: 1 }),
      await parse(bytes, { chunkSize: 7 }),
      await parse(text.replace(/\n/g, '\r\n')),
      await parse(oneLine.replace(/(.{80})/g, '$1\n')),
    ]) {
      expect(variant.problems).toEqual([]);
      expect(variant.series.map((s) => s.points)).toEqual(expected.series.map((s) => s.points));
    }
  });

  it('reads monthly meter-reading messages: consumption checked against the readings, or derived from them', async () => {
    const { series, problems } = await parse(read('monthly-readings.edi'));
    expect(problems).toEqual([]);
    expect(series.map((s) => ({ id: s.identifier, resolution: s.resolution, points: s.points }))).toEqual([
      {
        id: '707057500000000017',
        resolution: 'P1M',
        points: [{ start: '2026-09-30T23:00:00.000Z', value: 14250.5, quality: 127 }],
      },
      // Readings only, in MWh: the month is 530.5 - 512.125 MWh, estimated because the end reading is.
      {
        id: '707057500000000024',
        resolution: 'P1M',
        points: [{ start: '2026-09-30T23:00:00.000Z', value: 18375, quality: 56 }],
      },
    ]);
  });

  it('reads MSCONS monthly readings: the period in the header, a LOC+172 per metering point, units in QTY', async () => {
    const { series, problems } = await parse(read('mscons-monthly.edi'));
    expect(problems).toEqual([]);
    expect(series.map((s) => [s.identifier, s.resolution, s.points])).toEqual([
      ['707057500000000031', 'P1M', [{ start: '2026-09-30T23:00:00.000Z', value: 549.75, quality: 61 }]],
      ['707057500000000048', 'P1M', [{ start: '2026-09-30T23:00:00.000Z', value: 312.5, quality: 127 }]],
    ]);
  });

  it('reads other separators named in UNA and a Latin-1 (UNOC) file', async () => {
    const text = [
      'UNA|*,\\ ~',
      'UNB*UNOC|3*SENDER|14*RECV|14*261002|0600*R1~',
      'UNH*1*UTILTS|D|02B|UN|E5NO01~',
      'BGM*E66||260*R1*9~',
      'NAD*MS*Kraftverk Nørd||9~',
      'IDE*24*S1~',
      'LOC*172*MP\\|1||9~',
      'DTM*324|202610010000202610010200|719~',
      'DTM*354|60|MIN~',
      'MEA*AAZ**KWH~',
      'SEQ***1~',
      'QTY*136|1,5~',
      'SEQ***2~',
      'QTY*136|2~',
      'UNT*13*1~',
      'UNZ*1*R1~',
    ].join('\n');
    const { series, problems } = await parse(Buffer.from(text, 'latin1'));
    expect(problems).toEqual([]);
    expect(series[0]?.identifier).toBe('MP|1');
    expect(series[0]?.points.map((p) => p.value)).toEqual([1.5, 2]);
  });

  it('emits long series in chunks of at most 5,000 points, in time order', async () => {
    const values = Array.from({ length: 6000 }, (_, i) => i / 4);
    const text = writeUtilts({
      sender: 'A',
      receiver: 'B',
      reference: 'R',
      created: '2026-10-02T06:00:00Z',
      series: [{ meteringPoint: 'MP1', start: '2026-08-31T22:00:00Z', resolution: 'PT15M', values }],
    });
    const { series, problems } = await parse(text);
    expect(problems).toEqual([]);
    expect(series.map((s) => [s.identifier, s.points.length])).toEqual([
      ['MP1', 5000],
      ['MP1', 1000],
    ]);
    expect(series[1]?.points[0]).toEqual({ start: '2026-10-23T00:00:00.000Z', value: 1250, quality: 127 });
  });

  it('detects .edi files and EDIFACT heads', () => {
    expect(utiltsFormat.detect('october.edi', Buffer.from(''))).toBe(true);
    expect(utiltsFormat.detect('upload.txt', read('one-line.edi'))).toBe(true);
    expect(utiltsFormat.detect('upload.txt', Buffer.from('<xml/>'))).toBe(false);
  });
});

describe('UTILTS intake: files that cannot be mapped', () => {
  const valid = read('multi-line-una.edi').toString('utf8');
  const problemsOf = async (text: string) => (await parse(text)).problems;

  it('names the segment of each problem: unknown segment, missing LOC, bad value, UNT and UNZ counts', async () => {
    expect(await problemsOf(read('broken-counts.edi').toString('utf8'))).toEqual([
      'segment 9 (XYZ), line 10: Segment XYZ is not supported in a time series',
      'segment 8 (IDE), line 9: The time series has no metering point (LOC+172)',
      'segment 29 (QTY), line 30: Value 2.5x is invalid',
      'segment 34 (UNT), line 35: UNT counts 32 segments, but message 1 has 33',
      'segment 35 (UNZ), line 36: UNZ counts 2 messages, but the interchange has 1',
    ]);
  });

  it('refuses a monthly consumption that differs from the readings by more than 0.001', async () => {
    expect(await problemsOf(read('broken-monthly.edi').toString('utf8'))).toEqual([
      'segment 13 (QTY), line 14: The consumption 14250 does not match the meter readings (1017500.5 - 1003250 = 14250.5)',
    ]);
    const within = read('monthly-readings.edi').toString('utf8').replace("QTY+136:14250.5'", "QTY+136:14250.5009'");
    expect(await problemsOf(within)).toEqual([]);
  });

  it('refuses a truncated file at the unterminated segment', async () => {
    expect(await problemsOf(read('broken-truncated.edi').toString('utf8'))).toEqual([
      "segment 10 (D), line 11: The file ends inside segment 10 (D): the segment terminator ' is missing",
    ]);
  });

  it('refuses observations outside the period, twice, or fewer than the period holds', async () => {
    expect(await problemsOf(valid.replace("SEQ+++4'\nQTY+136:0.19'", "SEQ+++5'\nQTY+136:0.19'"))).toEqual([
      'segment 20 (SEQ), line 21: The observation at position 5 lies outside the period 2026-09-30T23:00:00.000Z–2026-10-01T00:00:00.000Z',
    ]);
    expect(await problemsOf(valid.replace("SEQ+++4'\nQTY+136:0.19'", "SEQ+++3'\nQTY+136:0.19'"))).toEqual([
      'segment 20 (SEQ), line 21: The observation for 2026-09-30T23:30:00.000Z is given twice',
    ]);
    expect(await problemsOf(valid.replace("SEQ+++4'\nQTY+136:0.19'\n", '').replace('UNT+33', 'UNT+31'))).toEqual([
      'segment 8 (IDE), line 9: The time series has 3 observations, but its period 2026-09-30T23:00:00.000Z–2026-10-01T00:00:00.000Z holds 4 at PT15M',
    ]);
  });

  it('refuses a series without a period, or whose resolution cannot be derived', async () => {
    expect(
      await problemsOf(valid.replace("DTM+324:202610010000202610010100:719'\n", '').replace('UNT+33', 'UNT+32')),
    ).toEqual(['segment 8 (IDE), line 9: The time series has no period (DTM+324, or DTM+163 and DTM+164)']);
    const empty = valid
      .replace(/IDE\+24\+TS2'[^]*(?=UNT)/, "IDE+24+TS2'\nLOC+172+X'\nDTM+324:202610010000202610010100:719'\n")
      .replace('UNT+33', 'UNT+24');
    expect(await problemsOf(empty)).toEqual([
      'segment 22 (IDE), line 23: The time series has no observations (SEQ, QTY)',
    ]);
    const three = valid.replace("SEQ+++4'\nQTY+136:4.5'\n", '').replace('UNT+33', 'UNT+31');
    expect(await problemsOf(three)).toEqual([
      'segment 22 (IDE), line 23: The resolution cannot be derived from the period and the observations: give DTM+354',
    ]);
  });

  it('refuses unknown units, qualifiers, statuses, dates and message types', async () => {
    expect(await problemsOf(valid.replace('MEA+AAZ++MWH', 'MEA+AAZ++KVR'))).toEqual([
      'segment 14 (QTY), line 15: Unit KVR is not supported (KWH, MWH, WH, GWH)',
    ]);
    expect(await problemsOf(valid.replace('QTY+136:0.2125', 'QTY+99:0.2125'))).toEqual([
      'segment 14 (QTY), line 15: QTY qualifier 99 is not supported (136, 31, 220)',
    ]);
    expect(await problemsOf(valid.replace('STS+++Z03', 'STS+++Q9'))).toEqual([
      'segment 17 (STS), line 18: Status Q9 is not a supported quality',
    ]);
    expect(
      await problemsOf(valid.replace('DTM+324:202610010000202610010100', 'DTM+324:202613010000202610010100')),
    ).toEqual(['segment 10 (DTM), line 11: Period 202613010000202610010100 (format 719) is invalid']);
    expect((await problemsOf(valid.replace('UTILTS:D', 'INVOIC:D')))[0]).toBe(
      'segment 2 (UNH), line 3: Message type INVOIC is not supported (UTILTS, MSCONS)',
    );
  });

  it('refuses a broken service string advice and a file without EDIFACT', async () => {
    expect(await problemsOf(valid.replace("UNA:+.? '", "UNA::.? '"))).toEqual([
      'line 1: The UNA service string advice "UNA::.? \'" is invalid',
    ]);
    expect(await problemsOf('')).toEqual(['The file holds no EDIFACT interchange (UNB)']);
    expect(await problemsOf("XYZ+1'ABC+2'")).toEqual([
      'segment 1 (XYZ), line 1: The file must start with UNB (or UNA), not XYZ',
    ]);
    expect(await problemsOf(`${valid}FTX+1'FTX+2'`)).toEqual(['segment 36 (FTX), line 37: Segment FTX follows UNZ']);
    expect((await problemsOf('hello world'))[0]).toMatch(/^segment 1 \(hel\), line 1: The file ends inside segment 1/);
  });

  it('stops after maxProblems', async () => {
    const bad = valid.replace(/QTY\+136:[0-9.,]+/g, 'QTY+136:x');
    expect((await parse(bad)).problems.length).toBeGreaterThan(3);
    expect((await parse(bad, { maxProblems: 2 })).problems).toHaveLength(2);
  });
});
