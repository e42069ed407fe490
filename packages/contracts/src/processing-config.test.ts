import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CONFIG_FIELDS,
  CONFIG_PROCEDURES,
  PROCESSING_CONFIG_SCHEMAS,
  SECOND_AGGREGATION_MESSAGE,
  TU_SETTLEMENT_FIELDS,
  configProcedureOf,
  defaultConfig,
  tuSettlementConfigSchema,
} from './processing-config.js';

const keysOf = (schema: z.ZodObject): string[] => Object.keys(schema.shape);

describe('processing configuration contracts', () => {
  it('gives every procedure valid defaults and a form field for each setting', () => {
    for (const procedure of CONFIG_PROCEDURES) {
      const defaults = defaultConfig(procedure);
      expect(PROCESSING_CONFIG_SCHEMAS[procedure].safeParse(defaults).success).toBe(true);
      // Every form field is a setting of the schema; only settlement's tpa flag is set by the page, not the form.
      const names = CONFIG_FIELDS[procedure].map((f) => f.name);
      for (const name of names) expect(Object.keys(defaults)).toContain(name);
      expect(Object.keys(defaults).filter((k) => !names.includes(k))).toEqual(
        procedure === 'settlement' ? ['tpa'] : [],
      );
    }
    expect(TU_SETTLEMENT_FIELDS.map((f) => f.name).sort()).toEqual(keysOf(tuSettlementConfigSchema).sort());
  });

  it('requires more days back for the second aggregation than for the first (calls.md §5)', () => {
    const schema = PROCESSING_CONFIG_SCHEMAS['metered-energy-aggregation'];
    const refused = schema.safeParse({ daysBackFirstAggregation: 10, daysBackSecondAggregation: 9 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      message: SECOND_AGGREGATION_MESSAGE,
      path: ['daysBackSecondAggregation'],
    });
    expect(schema.parse({ daysBackFirstAggregation: 10, daysBackSecondAggregation: 11 }).defaultAggregation).toBe(
      'SECOND',
    );
  });

  it('reads the calls.md spelling of shunting and stabling', () => {
    expect(configProcedureOf('shunting-stabling')).toBe('shunting-and-stabling');
    expect(configProcedureOf('combine')).toBe('combine');
    expect(configProcedureOf('payload-with-trainprofile')).toBeUndefined();
  });
});
