import { describe, expect, it } from 'vitest';
import { MASTERDATA_COLUMNS, readMasterdataCsv, writeMasterdataCsv } from './masterdata-csv.js';

describe('masterdata.csv', () => {
  it('writes the fleet columns with a BOM and semicolons, quoting where needed', () => {
    const csv = writeMasterdataCsv([
      { EVN: '919012345678', description: 'Vectron; "blue"', status: 'ACTIVE' },
    ]).toString('utf8');
    expect(csv.startsWith('\uFEFFEVN;VKM;NVR;description;traction unit name;')).toBe(true);
    expect(csv.split('\r\n')[1]).toBe('919012345678;;;"Vectron; ""blue""";;;;;;;;;ACTIVE');
  });

  it('escapes formula-like text and reads it back unchanged', () => {
    const row = {
      EVN: '919012345678',
      description: '=HYPERLINK("http://evil")',
      responsible: '@boss',
      'EMS type': '-x',
    };
    const csv = writeMasterdataCsv([row]);
    expect(csv.toString('utf8')).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv.toString('utf8')).toContain(`;'@boss;`);
    expect(readMasterdataCsv(csv)).toEqual([{ rowNumber: 2, row }]);
  });

  it('has the columns of the fleet entry', () => {
    expect(MASTERDATA_COLUMNS).toHaveLength(13);
  });
});
