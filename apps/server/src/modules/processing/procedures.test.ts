import { PROCEDURE_NAMES } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { registerImplementedProcedures } from './procedures.js';
import { procedureImplementation } from './registry.js';

describe('the procedures', () => {
  it('register an implementation for every procedure the contracts declare', () => {
    registerImplementedProcedures();
    expect(PROCEDURE_NAMES.filter((name) => !procedureImplementation(name))).toEqual([]);
  });
});
