import { describe, expect, it } from 'vitest';
import { ALL_CALLS, defineCall, fillPath, pathParamNames, POLICIES, policyAdmits, routerPath } from './index.js';

describe('call declarations', () => {
  it('refuses, at compile time, a call without a named access policy', () => {
    // tsc -b checks this file: if `access` ever became optional, the directive below would fail the build.
    // @ts-expect-error access is required
    const undeclared = defineCall({ method: 'GET', path: '/domain/nothing' });
    expect(undeclared.path).toBe('/domain/nothing');
  });

  it('declares every method and path once, each with a policy of POLICIES', () => {
    const keys = ALL_CALLS.map((c) => `${c.method} ${c.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const policies = Object.values(POLICIES) as readonly unknown[];
    for (const call of ALL_CALLS)
      expect({ id: call.id, known: policies.includes(call.access) }).toEqual({ id: call.id, known: true });
  });

  it('names each path parameter in the params schema, and the params schema only names path parameters', () => {
    for (const call of ALL_CALLS) {
      const declared = call.params ? Object.keys((call.params as unknown as { shape: object }).shape) : [];
      expect({ id: call.id, params: declared.sort() }).toEqual({
        id: call.id,
        params: pathParamNames(call.path).sort(),
      });
    }
  });

  it('turns a path into the router syntax and fills it with encoded parameters', () => {
    expect(routerPath('/domain/{type}/id/{uuid}')).toBe('/domain/:type/id/:uuid');
    expect(fillPath('/domain/{type}/id/{uuid}', { type: 'tractionunit', uuid: 'a b' })).toBe(
      '/domain/tractionunit/id/a%20b',
    );
    expect(() => fillPath('/domain/{type}/all', {})).toThrow('Missing path parameter type');
  });

  it('admits the roles of a policy, per area where the policy says so', () => {
    expect(policyAdmits(POLICIES.fleetWrite, ['erex-settlement-operator'], 'norway')).toBe(true);
    expect(policyAdmits(POLICIES.domainRead, ['consumer'], 'norway')).toBe(false);
    expect(policyAdmits(POLICIES.domainRead, ['consumer', 'settlement-area-responsible'], 'norway')).toBe(true);
    expect(policyAdmits(POLICIES.organisationWrite, ['settlement-area-responsible'], 'norway')).toBe(true);
    expect(policyAdmits(POLICIES.organisationWrite, ['settlement-area-responsible'], 'exchange')).toBe(false);
  });
});
