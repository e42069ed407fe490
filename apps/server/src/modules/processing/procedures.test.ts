import { CONFIG_PROCEDURES, PROCEDURE_NAMES, PROCESS_EVENT_CODES } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { ALL_PROCEDURES } from '../../procedures.js';
import { chainFrom } from '../../test/procedures.js';
import { defineProcedure, procedureTable } from './define-procedure.js';

describe('the procedures (src/procedures.ts ALL_PROCEDURES)', () => {
  it('define every procedure of the contracts exactly once, and nothing else', () => {
    const names = ALL_PROCEDURES.map((p) => p.name);
    expect([...names].sort()).toEqual([...PROCEDURE_NAMES].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it('refuse a list that defines a procedure twice', () => {
    const again = defineProcedure({ name: 'combine', run: async () => undefined });
    expect(() => procedureTable([...ALL_PROCEDURES, again])).toThrow(/combine is defined twice/);
  });

  it('declare configurations, events and followers the contracts know', () => {
    for (const p of ALL_PROCEDURES) {
      expect(
        p.configuration.filter((c) => !CONFIG_PROCEDURES.includes(c)),
        p.name,
      ).toEqual([]);
      // cebd-preprocessing's events are calls.md §8's numbered codes 54-60, the others named codes.
      const known = (code: string) => code in PROCESS_EVENT_CODES || /^(5[4-9]|60)$/.test(code);
      expect(
        p.events.filter((code) => !known(code)),
        p.name,
      ).toEqual([]);
      expect(
        p.followers.filter((f) => !PROCEDURE_NAMES.includes(f) || f === p.name),
        p.name,
      ).toEqual([]);
      expect(p.concurrency, p.name).toBeGreaterThanOrEqual(1);
    }
  });

  it('chain allocation after the preprocessings, and leave price-and-supply and settlement to a person', () => {
    expect(chainFrom('cebd-preprocessing')).toEqual([
      'cebd-preprocessing',
      'combine',
      'shunting-and-stabling',
      'energy-outside-train-run',
    ]);
    expect(chainFrom('train-preprocessing')).toEqual([
      'train-preprocessing',
      'combine',
      'reported-train-consumption',
      'shunting-and-stabling',
      'energy-outside-train-run',
    ]);
    // Nothing runs price-and-supply or settlement by itself (ARCHITECTURE.md says why).
    const followed = new Set(ALL_PROCEDURES.flatMap((p) => p.followers));
    expect(followed.has('price-and-supply')).toBe(false);
    expect(followed.has('settlement')).toBe(false);
  });
});
