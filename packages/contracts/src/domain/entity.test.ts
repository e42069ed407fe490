import { describe, expect, it } from 'vitest';
import { statusChangeRequestSchema } from './entity.js';

const base = { action: 'setinactive', type: 'TractionUnit', uuids: ['00000000-0000-4000-8000-000000000001'] };

describe('status change request', () => {
  it('takes a range without an end as open-ended (an empty "Valid to")', () => {
    for (const timeRange of [{ start: '2024-05-09T22:00:00Z' }, { start: '2024-05-09T22:00:00Z', end: null }]) {
      const parsed = statusChangeRequestSchema.safeParse({ ...base, timeRange });
      expect(parsed.success).toBe(true);
      expect(parsed.data?.timeRange.end ?? null).toBeNull();
    }
  });

  it('still refuses an end that is not after the start, naming the end', () => {
    const parsed = statusChangeRequestSchema.safeParse({
      ...base,
      timeRange: { start: '2024-05-09T22:00:00Z', end: '2024-05-01T22:00:00Z' },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['timeRange', 'end'],
      message: 'From date must be before to date',
    });
  });
});
