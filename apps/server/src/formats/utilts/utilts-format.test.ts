import { describe, expect, it } from 'vitest';
import { fixture, parseWith } from '../timeseries/format-test-helpers.js';
import { utiltsFormat } from './utilts-format.js';
import { writeUtilts } from './utilts-writer.js';

const read = (name: string) => fixture(new URL('./', import.meta.url), name);
const parse = (input: string | Buffer, options?: { chunkSize?: number; maxProblems?: number }) =>
  parseWith(utiltsFormat, input, options);

const hourlyPoints = (start: string, values: [number | null, number][]) =>
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
        points: hourlyPoints('2026-10-01T00:00:00Z', [
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

/** Sets every UNT to the count of its message's segments (the fixtures hold one segment per line). */
function recount(text: string): string {
  let unh = 0;
  return text
    .split('\n')
    .map((line, i) => {
      if (line.startsWith('UNH+')) unh = i;
      return line.startsWith('UNT+') ? line.replace(/^UNT\+\d+/, `UNT+${i - unh + 1}`) : line;
    })
    .join('\n');
}

describe('UTILTS intake: Nordic Ediel messages (E66 monthly readings, E30/E31 hourly series)', () => {
  const e66 = read('ediel-e66-monthly.edi').toString('utf8');
  const hourly = read('ediel-e31-e30-hourly.edi').toString('utf8');
  const problemsOf = async (text: string) => (await parse(recount(text))).problems;

  it('reads E66 with MKS, LOC+172 beside LOC+239, DTM+597, the series STS+7, CCI/CAV and SEQ numbering readings', async () => {
    for (const chunkSize of [undefined, 1, 13]) {
      const { series, problems } = await parse(e66, { chunkSize });
      expect(problems).toEqual([]);
      expect(
        series.map((s) => ({ id: s.identifier, resolution: s.resolution, line: s.location.line, points: s.points })),
      ).toEqual([
        // SEQ++1 and SEQ++2 the readings of register 101 (10000 and 11000.5 at the month's ends), SEQ++3 the
        // consumption: 1000.5 = 11000.5 - 10000. DTM+735 +0100 puts October's start at 23:00Z.
        {
          id: '735999888000013017',
          resolution: 'P1M',
          line: 12,
          points: [{ start: '2026-09-30T23:00:00.000Z', value: 1000.5, quality: 127 }],
        },
        // LOC+239 before LOC+172; registers 101 (1486 -> 3016) and 102 (16080 -> 16500.25), readings only:
        // the month is what both advanced, 1530 + 420.25.
        {
          id: '735999888000013024',
          resolution: 'P1M',
          line: 39,
          points: [{ start: '2026-09-30T23:00:00.000Z', value: 1950.25, quality: 127 }],
        },
        // The consumption alone, in MWh.
        {
          id: '735999888000013031',
          resolution: 'P1M',
          line: 75,
          points: [{ start: '2026-09-30T23:00:00.000Z', value: 12125, quality: 127 }],
        },
      ]);
    }
  });

  it('reads E31 and E30 hourly series: positions from SEQ, QTY+31 as estimated, hourly consumption beside the readings', async () => {
    const { series, problems } = await parse(hourly);
    expect(problems).toEqual([]);
    expect(series.map((s) => [s.identifier, s.resolution, s.points])).toEqual([
      [
        '735999888000013017',
        'PT1H',
        hourlyPoints('2026-09-30T23:00:00Z', [
          [41.5, 127],
          [40, 127],
          [39.75, 56],
          [42.25, 127],
        ]),
      ],
      // SEQ++1 and ++2 the readings 5000 and 5010 at 00:00 and 04:00, SEQ++3..6 the hours: 10 in all.
      [
        '735999888000013024',
        'PT1H',
        hourlyPoints('2026-09-30T23:00:00Z', [
          [2.5, 127],
          [2.25, 127],
          [2.75, 127],
          [2.5, 127],
        ]),
      ],
    ]);
  });

  it('derives each hour from consecutive register readings when the series gives no consumption', async () => {
    const readings = [5000, 5002.5, 5004.75, 5007.5, 5010]
      .map(
        (value, i) =>
          `SEQ++${i + 1}'\nRFF+AES:101'\nQTY+220:${value}'\nDTM+597:202610010${i}00:203'\n` +
          (i === 2 ? "STS+++Z03'\n" : '') +
          "CCI+++E22::260'\nCAV+E27::260'\n",
      )
      .join('');
    const text = hourly.replace(/SEQ\+\+1'\nRFF\+AES:101'\nQTY\+220:5000'[^]*?(?=UNT\+)/, readings);
    const { series, problems } = await parse(recount(text));
    expect(problems).toEqual([]);
    // The third reading is estimated (Z03): both hours it bounds are.
    expect(series[1]?.points).toEqual(
      hourlyPoints('2026-09-30T23:00:00Z', [
        [2.5, 127],
        [2.25, 56],
        [2.75, 56],
        [2.5, 127],
      ]),
    );
  });

  it('writes and reads back the Ediel layout', async () => {
    const text = writeUtilts({
      sender: '91100',
      receiver: '92165',
      reference: 'E1',
      created: '2026-11-02T06:00:00Z',
      offsetHours: 1,
      ediel: { gridArea: 'TES' },
      series: [{ meteringPoint: 'MP1', start: '2026-09-30T23:00:00Z', resolution: 'PT1H', values: [1, null, 3] }],
      monthly: [
        {
          meteringPoint: 'MP2',
          start: '2026-09-30T23:00:00Z',
          end: '2026-10-31T23:00:00Z',
          startReading: 100,
          endReading: 350.5,
          consumption: 250.5,
        },
      ],
    });
    expect(text).toContain("MKS+23+E02::260'");
    expect(text).toContain("LOC+239+TES:SVK:260'");
    expect(text).toContain("SEQ++3'\nQTY+136:250.5'");
    const { series, problems } = await parse(text);
    expect(problems).toEqual([]);
    expect(series.map((s) => [s.identifier, s.points.map((p) => p.value)])).toEqual([
      ['MP1', [1, null, 3]],
      ['MP2', [250.5]],
    ]);
  });

  it('still refuses what the guides do not allow, naming the segment', async () => {
    const firstSeries = "IDE+24+E261102000002'\n";
    const cases: [string, string[]][] = [
      [
        e66.replace("QTY+136:1000.5'", "QTY+136:1000'"),
        [
          'segment 35 (QTY), line 36: The consumption 1000 does not match the meter readings (11000.5 - 10000 = 1000.5)',
        ],
      ],
      [
        e66.replace(firstSeries, `${firstSeries}MKS+23+E02::260'\n`),
        ['segment 11 (MKS), line 12: Segment MKS is not supported in a time series'],
      ],
      [
        e66.replace('LOC+239+TES:SVK:260', 'LOC+90+TES:SVK:260'),
        ['segment 12 (LOC), line 13: LOC qualifier 90 is not supported (172, 239)'],
      ],
      [
        e66.replace("LOC+239+TES:SVK:260'\n", "LOC+239+TES:SVK:260'\nLOC+239+TES2:SVK:260'\n"),
        ['segment 13 (LOC), line 14: The time series names a second grid area (LOC+239)'],
      ],
      [
        e66.replace('LOC+239+TES:SVK:260', 'LOC+239+:SVK:260'),
        ['segment 12 (LOC), line 13: LOC+239 names no grid area'],
      ],
      [
        e66.replace('STS+7++E88::260', 'STS+8++E88::260'),
        ['segment 17 (STS), line 18: STS before any observation (SEQ or QTY)'],
      ],
      [e66.replace('STS+7++E88::260', 'STS+7'), ['segment 17 (STS), line 18: STS+7 names no transaction reason']],
      [
        e66.replace("STS+7++E88::260'\n", "STS+7++E88::260'\nSTS+7++E64::260'\n"),
        ['segment 18 (STS), line 19: The time series gives a second transaction reason (STS+7)'],
      ],
      [e66.replace("CCI+++E12::260'\n", ''), ['segment 19 (CAV), line 20: CAV without a CCI before it']],
      [
        e66.replace('DTM+597:202611010000:203', 'DTM+597:202613010000:203'),
        ['segment 15 (DTM), line 16: Date 202613010000 (format 203) is invalid'],
      ],
      [
        e66.replace('DTM+597:202610010000:203', 'DTM+597:2026100100:203'),
        ['segment 25 (DTM), line 26: Date 2026100100 (format 203) is invalid'],
      ],
      [
        e66.replace("SEQ++2'", "SEQ++1'"),
        ['segment 28 (SEQ), line 29: Sequence number 1 is given twice in the time series'],
      ],
      [
        e66.replace("QTY+220:11000.5'\nDTM+597:202611010000", "QTY+220:11000.5'\nDTM+597:202610150000"),
        [
          'segment 30 (QTY), line 31: The meter reading at 2026-10-14T23:00:00.000Z is neither the start nor the end of the period',
        ],
      ],
      [
        e66.replace(/SEQ\+\+4'\nRFF\+AES:102'[^]*?(?=IDE\+24\+E261102000004)/, ''),
        ['segment 63 (QTY), line 64: Register 102 is read at other times than register 101'],
      ],
      [
        e66.replace("SEQ++4'\nRFF+AES:102'\n", "SEQ++4'\nRFF+AES:102'\nRFF+MG:M-0999'\n"),
        [
          'segment 70 (QTY), line 71: Register 102 is read on two meters (M-0132, M-0999): a meter change within the period is not supported',
        ],
      ],
      // E31 per grid area only (no LOC+172): the intake stores series per metering point.
      [
        hourly.replace("LOC+172+735999888000013017::9'\n", ''),
        ['segment 10 (IDE), line 11: The time series has no metering point (LOC+172)'],
      ],
      [
        hourly.replace('QTY+220:5010', 'QTY+220:5011'),
        ['segment 61 (QTY), line 62: The consumption 10 does not match the meter readings (5011 - 5000 = 11)'],
      ],
      [
        hourly.replace('DTM+597:202610010400:203', 'DTM+597:202610010430:203'),
        [
          'segment 56 (QTY), line 57: The meter reading at 2026-10-01T03:30:00.000Z is not at the start or the end of a PT1H interval of the period',
        ],
      ],
      [
        hourly.replace(/SEQ\+\+3'\nQTY\+136:2\.5'[^]*?(?=UNT\+)/, ''),
        [
          'segment 56 (QTY), line 57: The meter readings at 2026-09-30T23:00:00.000Z and 2026-10-01T03:00:00.000Z span 4 PT1H intervals: give their consumption (QTY+136)',
        ],
      ],
    ];
    const got: string[][] = [];
    for (const [text] of cases) got.push(await problemsOf(text));
    expect(got).toEqual(cases.map(([, expected]) => expected));
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
