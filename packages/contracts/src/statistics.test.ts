import { describe, expect, it } from 'vitest';
import { MESSAGE_STATUSES } from './datalog.js';
import { DASHBOARD_CATEGORIES, PROCEDURE_RESULT_STATUSES } from './processing.js';
import {
  completenessQuerySchema,
  COMPLETENESS_MESSAGE,
  DATA_LOG_CATEGORY_OF,
  MESSAGE_STATUS_BUCKET,
  PROCEDURE_CATEGORY_OF,
  PROCEDURE_STATUS_BUCKET,
} from './statistics.js';

describe('dashboard categories', () => {
  it('every category is counted from exactly one source: procedure runs or data-log files', () => {
    const fromProcedures = new Set(Object.values(PROCEDURE_CATEGORY_OF));
    const fromFiles = new Set(Object.values(DATA_LOG_CATEGORY_OF));
    for (const category of DASHBOARD_CATEGORIES)
      expect({ category, sources: Number(fromProcedures.has(category)) + Number(fromFiles.has(category)) }).toEqual({
        category,
        sources: 1,
      });
  });

  it('every status has a column', () => {
    expect(Object.keys(PROCEDURE_STATUS_BUCKET).sort()).toEqual([...PROCEDURE_RESULT_STATUSES].sort());
    expect(Object.keys(MESSAGE_STATUS_BUCKET).sort()).toEqual([...MESSAGE_STATUSES].sort());
  });
});

describe('completeness verification threshold', () => {
  it('is at least 24 hours, refused below with the words of the spec, 24 by default', () => {
    expect(completenessQuerySchema.parse({ threshold: '24' }).threshold).toBe(24);
    expect(completenessQuerySchema.parse({}).threshold).toBe(24);
    const refused = completenessQuerySchema.safeParse({ threshold: '23' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(COMPLETENESS_MESSAGE);
  });
});
