import { describe, expect, it } from 'vitest';
import { MASTERDATA_COLUMNS, readMasterdataCsv, writeMasterdataCsv } from './masterdata-csv.js';

describe('masterdata.csv', () => {
  it('writes the fleet columns with a BOM and semicolons, quoting where needed', () => {
    const csv = writeMasterdataCsv([
      { EVN: '919012345678', Description: 'Vectron; "blue"', Status: 'ACTIVE' },
    ]).toString('utf8');
    expect(
      csv.startsWith(
        '\uFEFFEVN;VKM;NVR;Description;Traction unit name;Type;Responsible;EMS type;EMS id;CPID;Valid from;Valid to;Status\r\n',
      ),
    ).toBe(true);
    expect(csv.split('\r\n')[1]).toBe('919012345678;;;"Vectron; ""blue""";;;;;;;;;ACTIVE');
  });

  it('escapes formula-like text and reads it back unchanged', () => {
    const row = {
      EVN: '919012345678',
      Description: '=HYPERLINK("http://evil")',
      Responsible: '@boss',
      'EMS type': '-x',
    };
    const csv = writeMasterdataCsv([row]);
    expect(csv.toString('utf8')).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv.toString('utf8')).toContain(`;'@boss;`);
    expect(readMasterdataCsv(csv)).toEqual([{ rowNumber: 2, row }]);
  });

  it('reads files written before the labels (lower-case headers) into the same columns', () => {
    const old =
      '\uFEFFEVN;description;traction unit name;valid from;status\r\n919012345678;Vectron;TU 1;01.01.2024;ACTIVE\r\n';
    expect(readMasterdataCsv(old)).toEqual([
      {
        rowNumber: 2,
        row: {
          EVN: '919012345678',
          Description: 'Vectron',
          'Traction unit name': 'TU 1',
          'Valid from': '01.01.2024',
          Status: 'ACTIVE',
        },
      },
    ]);
  });

  it('has the columns of the fleet entry', () => {
    expect(MASTERDATA_COLUMNS).toHaveLength(13);
  });
});
