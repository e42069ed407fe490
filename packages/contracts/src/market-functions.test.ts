import { describe, expect, it } from 'vitest';
import { parseMarketFunction, parseMarketFunctions, rolesInArea } from './market-functions.js';

const AREA = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

describe('market functions from the token', () => {
  it('lowercases the value and reads the area after the colon', () => {
    expect(parseMarketFunction(`marketfunction=Settlement-Area-Responsible:${AREA}`)).toEqual({
      role: 'settlement-area-responsible',
      areaId: AREA,
    });
  });
  it('treats a function without an area as valid in every area', () => {
    expect(parseMarketFunction('x=EREX-ADMINISTRATOR')).toEqual({ role: 'erex-administrator', areaId: null });
  });
  it('ignores unknown functions and non-strings', () => {
    expect(parseMarketFunctions(['x=janitor', 42, `y=consumer:${AREA}`])).toEqual([{ role: 'consumer', areaId: AREA }]);
  });
  it('filters by the selected area', () => {
    const fns = parseMarketFunctions([`a=consumer:${AREA}`, `a=vehicle-keeper:${OTHER}`, 'a=cp-admin']);
    expect(rolesInArea(fns, AREA).sort()).toEqual(['consumer', 'cp-admin']);
  });
});
