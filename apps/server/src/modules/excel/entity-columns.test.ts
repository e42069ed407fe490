import { ENTITY_KINDS, type EntityKind } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { columnLabel, fieldOfHeader, sheetLayout } from './entity-columns.js';

describe('domain workbook columns', () => {
  it('labels fields as people read them', () => {
    expect(columnLabel('validFrom')).toBe('Valid from');
    expect(columnLabel('tractionUnitTypeRef')).toBe('Traction unit type');
    expect(columnLabel('consumptionPointRefs')).toBe('Consumption points');
    expect(columnLabel('emsId')).toBe('EMS id');
    expect(columnLabel('evn')).toBe('EVN');
  });

  it('gives every column of every kind a label naming exactly that field, and reads label or field name', () => {
    for (const kind of Object.keys(ENTITY_KINDS) as EntityKind[]) {
      const layout = sheetLayout(kind);
      expect(new Set(layout.labels.map((l) => l.toLowerCase())).size, kind).toBe(layout.columns.length);
      layout.columns.forEach((field, i) => {
        expect(fieldOfHeader(layout, layout.labels[i]!), `${kind} ${field}`).toBe(field);
        expect(fieldOfHeader(layout, field), `${kind} ${field}`).toBe(field);
      });
    }
  });
});
