import {
  ALL_CALLS,
  pathParamNames,
  POLICIES,
  policyRoles,
  ROLES,
  routerPath,
  fillPath,
  type AreaKind,
  type CallDeclaration,
  type Role,
} from '@railwatt/contracts';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createTestApp, type TestApp } from '../test/app.js';
import { DOCS_PREFIX } from '../plugins/docs.js';
import { API_PREFIX } from './register-call.js';

/**
 * The access and input tests of every declared call (packages/contracts/src/calls), generated from the
 * declarations: a call added to contracts is tested here without anyone writing a line, and a route
 * served without a declaration (or a declaration without its route) fails.
 */

const SOME_UUID = '7d0e4b8e-3c4f-4a57-9d5e-2f1b8f0c0a11';

/** The demo user named after each role holds it in every country (exchange-operator: exchange only). */
const areaOfRole = (role: Role): AreaKind => (role === 'exchange-operator' ? 'exchange' : 'norway');

type Shape = Record<string, z.ZodType>;
const shapeOf = (schema: z.ZodType | undefined): Shape =>
  (schema as unknown as { shape?: Shape } | undefined)?.shape ?? {};

/**
 * Values that a path or query parameter schema should refuse: not a uuid, a NUL character, not a
 * positive number, far too long. (A path segment over 100 characters already gets 404 from the router.)
 */
const HOSTILE_VALUES = ['not-a-uuid', 'a\u0000b', '-1', 'x'.repeat(5000)];

/** A path with some value in each parameter (the access hook runs before validation). */
const anyUrl = (call: CallDeclaration) =>
  API_PREFIX + fillPath(call.path, Object.fromEntries(pathParamNames(call.path).map((n) => [n, SOME_UUID])));

function request(call: CallDeclaration, url = anyUrl(call)): InjectOptions {
  return { method: call.method, url, ...(call.body ? { payload: {} } : {}) };
}

/** Served /api routes (not the docs, not the automatic HEAD) against the declarations, both ways. */
function compareRoutes(app: FastifyInstance): { undeclared: string[]; unserved: string[] } {
  const declared = new Set(ALL_CALLS.map((c) => `${c.method} ${API_PREFIX}${routerPath(c.path)}`));
  const served = new Set(
    app.apiRoutes
      .filter((r) => r.method !== 'HEAD' && !r.url.startsWith(DOCS_PREFIX))
      .map((r) => `${r.method} ${r.url}`),
  );
  return {
    undeclared: [...served].filter((r) => !declared.has(r)).sort(),
    unserved: [...declared].filter((r) => !served.has(r)).sort(),
  };
}

describe('the declared-vs-served comparison', () => {
  it('reports a route registered without a declaration', async () => {
    const t = await createTestApp({
      beforeReady: (app) => {
        app.get('/api/domain/undeclared', { config: { access: POLICIES.domainLookup } }, async () => ({}));
      },
    });
    try {
      expect(compareRoutes(t.app)).toEqual({ undeclared: ['GET /api/domain/undeclared'], unserved: [] });
    } finally {
      await t.close();
    }
  });
});

describe('every declared call', () => {
  let t: TestApp;
  const tokens = new Map<string, string>();
  const send = async (username: string, kind: AreaKind, options: InjectOptions) => {
    if (!tokens.has(username)) tokens.set(username, await t.tokenFor(username));
    return t.app.inject({
      ...options,
      headers: {
        authorization: `Bearer ${tokens.get(username)}`,
        'current-tenant-id': t.areaUuid(kind),
        ...(options.headers ?? {}),
      },
    });
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('is served, and every /api route served is declared', () => {
    expect(compareRoutes(t.app)).toEqual({ undeclared: [], unserved: [] });
    // The route carries the declaration's policy, not a copy that could drift.
    for (const call of ALL_CALLS) {
      const routeOf = t.app.apiRoutes.find(
        (r) => r.method === call.method && r.url === `${API_PREFIX}${routerPath(call.path)}`,
      );
      expect({ id: call.id, access: routeOf?.access }).toEqual({ id: call.id, access: call.access });
    }
  });

  it('answers 401 without a token', async () => {
    for (const call of ALL_CALLS) {
      const response = await t.app.inject(request(call));
      expect({ id: call.id, status: response.statusCode }).toEqual({ id: call.id, status: 401 });
      expect(response.json()).toMatchObject({ status: 401 });
    }
  });

  it('answers 403 to every role outside its policy, and to a user without a function in the area', async () => {
    let checked = 0;
    for (const call of ALL_CALLS) {
      if (!call.access.tenant) continue;
      // The exchange operator holds nothing in Norway: no policy lets it act there.
      const stranger = await send('exchange-operator', 'norway', request(call));
      expect({ id: call.id, who: 'stranger', status: stranger.statusCode }).toEqual({
        id: call.id,
        who: 'stranger',
        status: 403,
      });
      for (const role of ROLES) {
        const kind = areaOfRole(role);
        const allowed = policyRoles(call.access, kind);
        if (allowed === 'any' || allowed.includes(role)) continue;
        const response = await send(role, kind, request(call));
        expect({ id: call.id, role, status: response.statusCode }).toEqual({ id: call.id, role, status: 403 });
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('answers 400 invalid_input to a bad body, bad path parameters and bad query values', async () => {
    let checked = 0;
    const expectInvalid = async (call: CallDeclaration & { id: string }, what: string, options: InjectOptions) => {
      const response = await send('erex-administrator', 'norway', options);
      expect({ id: call.id, what, status: response.statusCode }).toEqual({ id: call.id, what, status: 400 });
      expect({ id: call.id, what, code: response.json().code }).toEqual({ id: call.id, what, code: 'invalid_input' });
      checked += 1;
    };
    for (const call of ALL_CALLS) {
      if (call.body || call.upload) {
        // A JSON string where an object or a list belongs; an upload that is not multipart.
        await expectInvalid(call, 'body', {
          ...request(call),
          payload: '"not the body"',
          headers: { 'content-type': 'application/json' },
        });
      }
      for (const name of pathParamNames(call.path)) {
        const schema = shapeOf(call.params)[name];
        const bad = HOSTILE_VALUES.find((v) => schema && !schema.safeParse(v).success);
        // Every path parameter has a bound: an unbounded one is a gap this test reports.
        expect({ id: call.id, param: name, refusesSomething: bad !== undefined }).toEqual({
          id: call.id,
          param: name,
          refusesSomething: true,
        });
        const params = Object.fromEntries(pathParamNames(call.path).map((n) => [n, n === name ? bad : SOME_UUID]));
        await expectInvalid(call, `params.${name}`, request(call, API_PREFIX + fillPath(call.path, params)));
      }
      for (const [name, schema] of Object.entries(shapeOf(call.query))) {
        const bad = HOSTILE_VALUES.find((v) => !schema.safeParse(v).success);
        if (bad === undefined) continue;
        const url = `${anyUrl(call)}?${new URLSearchParams({ [name]: bad }).toString()}`;
        await expectInvalid(call, `query.${name}`, request(call, url));
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});
