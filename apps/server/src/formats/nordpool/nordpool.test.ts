import { describe, expect, it } from 'vitest';
import { bytesOf, gather, OSLO, pointsOf } from '../timeseries-table/fixtures.js';
import { timeSeriesCsvFormat } from '../timeseries-table/csv-format.js';
import { problemText } from '../timeseries/format.js';
import { countryCurrency } from '@railwatt/contracts';
import { nordpoolFormat } from './nordpool-format.js';
import { generateNordpoolCsv } from './nordpool-generate.js';

const read = (text: string | Buffer) =>
  gather(nordpoolFormat.parse(bytesOf(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), 101), OSLO));

describe('Nordpool prices', () => {
  it('reads hourly prices per price area in EUR/MWh and the exchange rate per hour', async () => {
    const text = [
      'Delivery day;Hour;NO1;NO2;Currency;Exchange rate',
      '01.01.2024;00-01;45,12;-1.5;NOK;11,2345',
      '01.01.2024;01-02;46,00;;NOK;11,2345',
    ].join('\r\n');
    const { series, problems } = await read(text);
    expect(problems).toEqual([]);
    expect(series).toEqual([
      {
        typeName: 'spot_price',
        identifier: 'NO1',
        resolution: 'PT1H',
        unit: 'EUR/MWh',
        location: { line: 1, column: 3 },
        points: [
          { start: '2023-12-31T23:00:00Z', value: 45.12, quality: 127 },
          { start: '2024-01-01T00:00:00Z', value: 46, quality: 127 },
        ],
      },
      {
        typeName: 'spot_price',
        identifier: 'NO2',
        resolution: 'PT1H',
        unit: 'EUR/MWh',
        location: { line: 1, column: 4 },
        points: [{ start: '2023-12-31T23:00:00Z', value: -1.5, quality: 127 }],
      },
      {
        typeName: 'currency_exchange_rate',
        identifier: 'NOK',
        resolution: 'PT1H',
        location: { line: 1, column: 6 },
        points: [
          { start: '2023-12-31T23:00:00Z', value: 11.2345, quality: 127 },
          { start: '2024-01-01T00:00:00Z', value: 11.2345, quality: 127 },
        ],
      },
    ]);
    expect(countryCurrency('norway')).toBe('NOK');
    expect(countryCurrency('exchange')).toBeUndefined();
  });

  it('reads the 23-hour spring day and the 25-hour autumn day (02-03A, 02-03B) in Europe/Oslo', async () => {
    const file = Buffer.concat([
      generateNordpoolCsv({ fromDay: '2024-03-31', days: 1 }),
      generateNordpoolCsv({ fromDay: '2024-10-27', days: 1 }).subarray(
        generateNordpoolCsv({ fromDay: '2024-10-27', days: 1 }).indexOf('\n') + 1,
      ),
    ]);
    const lines = file.toString('utf8').trim().split('\r\n');
    expect(lines).toHaveLength(1 + 23 + 25);
    expect(lines.filter((l) => l.includes(';02-03'))).toEqual([
      expect.stringMatching(/^27\.10\.2024;02-03A;/),
      expect.stringMatching(/^27\.10\.2024;02-03B;/),
    ]);
    const { series, problems } = await read(file);
    expect(problems).toEqual([]);
    const starts = pointsOf(series, 'NO3').map((p) => Date.parse(p.start));
    expect(starts).toHaveLength(48);
    expect(starts[0]).toBe(Date.parse('2024-03-30T23:00:00Z'));
    expect(starts[23]).toBe(Date.parse('2024-10-26T22:00:00Z'));
    expect(starts.slice(1).every((s, i) => i === 22 || s - starts[i]! === 3_600_000)).toBe(true);
    expect(pointsOf(series, 'NOK')).toHaveLength(48);
  });

  it('reads the repeated hour without letters in order, and skips the empty line of the skipped hour', async () => {
    const text = [
      'Delivery day,Hour,SE3',
      '31-03-2024,02-03,',
      '31/03/2024,03-04,3',
      '2024-10-27,02-03,"1,5"',
      '2024-10-27,02-03,2.5',
    ].join('\n');
    const { series, problems } = await read(text);
    expect(problems).toEqual([]);
    expect(series[0]!.points.map((p) => [p.start, p.value])).toEqual([
      ['2024-03-31T01:00:00Z', 3],
      ['2024-10-27T00:00:00Z', 1.5],
      ['2024-10-27T01:00:00Z', 2.5],
    ]);
  });

  it('names the line and column of every problem in the words of the upload failures', async () => {
    const text = [
      'Delivery day;Hour;NO1;Currency;Exchange rate',
      ';00-01;1;NOK;11',
      '01.01.2024;;1;NOK;11',
      '01.01.2024;00-01;abc;NOK;11',
      '01.01.2024;00-01;1;NOK;11',
      '31.02.2024;00-01;1;NOK;11',
      '31.03.2024;02-03;5;NOK;11',
      '01.04.2024;05-07;5;NOK;11',
      '02.04.2024;05-06;5;;11',
      '02.04.2024;06-07;5;NOK;x',
      '02.04.2024;07-08;5;kroner;11',
    ].join('\n');
    expect((await read(text)).problems.map(problemText)).toEqual([
      'line 2, column 1: Start date missing (Delivery day)',
      'line 3, column 2: Start date missing (Hour)',
      'line 4, column 3: Value abc is invalid',
      'line 5, column 2: Value 00-01 is invalid: the hours must follow each other in time',
      'line 6, column 1: Value 31.02.2024 is invalid',
      'line 7, column 2: Value 02-03 is invalid: the hour does not exist on that day',
      'line 8, column 2: Value 05-07 is invalid',
      'line 9, column 4: Something is wrong with data of type: currency_exchange_rate: no currency',
      'line 10, column 5: Value x is invalid',
      'line 11, column 4: Value kroner is invalid',
    ]);
    expect((await read('Hour;NO1\n')).problems.map(problemText)).toEqual([
      'line 1: Something is wrong with uploaded data: the first line must start with Delivery day;Hour',
    ]);
  });

  it('detects its files only, and the time-series CSV does not take them', () => {
    const head = generateNordpoolCsv({ fromDay: '2024-01-01', days: 1 }).subarray(0, 4096);
    expect(nordpoolFormat.detect('prices.csv', head)).toBe(true);
    expect(timeSeriesCsvFormat.detect('prices.csv', head)).toBe(false);
    expect(nordpoolFormat.detect('prices.xlsx', head)).toBe(false);
    expect(nordpoolFormat.detect('a.csv', Buffer.from('type;spot_price\n'))).toBe(false);
  });

  it('generates the same bytes for the same options', () => {
    const options = { fromDay: '2024-01-01', days: 3, seed: 7 };
    expect(generateNordpoolCsv(options).equals(generateNordpoolCsv(options))).toBe(true);
  });
});
