import { describe, expect, it } from 'vitest';
import { aggregationFileName, dataLogFilterSchema, masterDataDownloadType, stripAggregationPrefix } from './datalog.js';

describe('data-log filter (calls.md §3)', () => {
  it('defaults to page 0 of 100, newest first', () => {
    expect(dataLogFilterSchema.parse({})).toMatchObject({
      page: 0,
      size: 100,
      sortBy: 'logTimeStamp',
      descendingOrder: true,
      enableObservationTime: false,
    });
  });

  it('reads comma lists, ordered ranges and strips EXP_/RES_ from the file name', () => {
    const filter = dataLogFilterSchema.parse({
      typeName: 'CEBD_IMPORT, SDV_IMPORT,',
      status: 'OK',
      entityIdentifiers: 'a,b',
      fileName: 'EXP_agg.xml',
      processingTimeRange: '2024-01-01T00:00:00Z,2024-02-01T00:00:00Z',
      enableObservationTime: 'true',
      size: '10',
    });
    expect(filter).toMatchObject({
      typeName: ['CEBD_IMPORT', 'SDV_IMPORT'],
      status: ['OK'],
      entityIdentifiers: ['a', 'b'],
      fileName: 'agg.xml',
      processingTimeRange: { start: '2024-01-01T00:00:00Z', end: '2024-02-01T00:00:00Z' },
      enableObservationTime: true,
      size: 10,
    });
  });

  it('refuses a reversed range, a size over 1000 and a column outside the allow-list', () => {
    expect(
      dataLogFilterSchema.safeParse({ observationTimeRange: '2024-02-01T00:00:00Z,2024-01-01T00:00:00Z' }).success,
    ).toBe(false);
    expect(dataLogFilterSchema.safeParse({ processingTimeRange: '2024-02-01T00:00:00Z' }).success).toBe(false);
    expect(dataLogFilterSchema.safeParse({ size: '1001' }).success).toBe(false);
    expect(dataLogFilterSchema.safeParse({ sortBy: 'file_bytes' }).success).toBe(false);
  });

  it('names aggregation files EXP_ and RES_, and maps transfer types to download types', () => {
    expect(stripAggregationPrefix('RES_x.xml')).toBe('x.xml');
    expect(stripAggregationPrefix('x_RES_.xml')).toBe('x_RES_.xml');
    expect(aggregationFileName('EXP_x.xml', true)).toBe('RES_x.xml');
    expect(aggregationFileName('x.xml', false)).toBe('EXP_x.xml');
    expect(masterDataDownloadType('MASTER_DATA_TRANSFER_IN')).toBe('TRANSFER');
    expect(masterDataDownloadType('MASTER_DATA_TRANSFER_OUT')).toBe('TRANSFER');
    expect(masterDataDownloadType('MASTER_DATA_TRANSFER_INTERNAL')).toBe('INTERNAL');
  });
});
