import {
  ADMIN_ONLY_FIELDS,
  AREA_KINDS_INFRASTRUCTURE,
  KIND_ATTRIBUTE_SCHEMAS,
  type EntityKind,
} from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { hasGuardedApproval } from '../policy.js';
import { keepAdminOnlyFields } from './admin-only.js';
import { applyApprovalRules } from './approval.js';
import { KIND_RULES } from './index.js';

const kinds = Object.keys(KIND_ATTRIBUTE_SCHEMAS) as EntityKind[];
const shapeOf = (kind: EntityKind): Record<string, unknown> =>
  (KIND_ATTRIBUTE_SCHEMAS[kind] as unknown as { shape: Record<string, unknown> }).shape;

describe('KIND_RULES, the registry of each kind’s rules', () => {
  it('keeps the admin-only fields of every kind that has them (contracts ADMIN_ONLY_FIELDS)', () => {
    const withFields = kinds.filter((k) => ADMIN_ONLY_FIELDS[k]?.length);
    expect(withFields.length).toBeGreaterThan(0);
    for (const kind of withFields) expect(KIND_RULES[kind]?.adjust, kind).toContain(keepAdminOnlyFields);
  });

  it('guards approval for billing on every kind that has approvers', () => {
    const guarded = kinds.filter(hasGuardedApproval);
    expect(guarded).toEqual(expect.arrayContaining(['tractionunit', 'tractionunittype']));
    for (const kind of guarded) expect(KIND_RULES[kind]?.adjust, kind).toContain(applyApprovalRules);
  });

  it('checks every infrastructure area kind (nooverlap, within)', () => {
    for (const kind of AREA_KINDS_INFRASTRUCTURE) expect(KIND_RULES[kind]?.checkBatch, kind).toBeTypeOf('function');
  });

  it('derives the fields a kind schema does not let the user set (the CPID) and holds unique properties to their kind', () => {
    expect(KIND_RULES.consumptionpoint?.derive).toBeTypeOf('function');
    expect(KIND_RULES.tractionunit?.derive).toBeTypeOf('function');
    for (const [kind, rules] of Object.entries(KIND_RULES) as [EntityKind, (typeof KIND_RULES)[EntityKind]][]) {
      for (const { property } of rules?.uniqueProperties ?? [])
        expect(shapeOf(kind), `${kind}.${property}`).toHaveProperty(property);
      for (const field of rules?.immutable ?? []) expect(shapeOf(kind), `${kind}.${field}`).toHaveProperty(field);
    }
    expect(KIND_RULES.tractionunit?.uniqueProperties?.map((u) => u.property)).toEqual(['evn']);
    expect(KIND_RULES.organisation?.uniqueProperties?.map((u) => u.property)).toEqual(['orgId']);
    expect(KIND_RULES.consumptionpoint?.uniqueProperties?.map((u) => u.property)).toEqual(['cpid']);
  });
});
