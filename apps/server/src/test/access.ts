import { expect } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { TestApp } from './app.js';

export interface ProtectedCall {
  method: InjectOptions['method'];
  url: string;
  payload?: InjectOptions['payload'];
  /** A user allowed to make the call (used to mint the bad tokens). */
  username: string;
  /** The area sent as current-tenant-id (tenant routes). */
  tenant?: string;
}

/**
 * The 401 cases every protected route must pass: no token, a tampered signature, an expired token,
 * a token for another audience and one from another issuer.
 */
export async function expectBadTokensRejected(t: TestApp, call: ProtectedCall): Promise<void> {
  const send = (authorization?: string) =>
    t.app.inject({
      method: call.method,
      url: call.url,
      payload: call.payload,
      headers: {
        ...(authorization ? { authorization } : {}),
        ...(call.tenant ? { 'current-tenant-id': call.tenant } : {}),
      },
    });
  const good = await t.tokenFor(call.username);
  const [header, payload, signature = ''] = good.split('.');
  const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
  const forged = Buffer.from(
    JSON.stringify({ ...claims, market_functions: ['marketfunction=erex-administrator'] }),
  ).toString('base64url');
  const cases: Record<string, string | undefined> = {
    'no token': undefined,
    'not a bearer token': `Basic ${Buffer.from('a:b').toString('base64')}`,
    'malformed token': 'Bearer not-a-jwt',
    'tampered signature': `Bearer ${header}.${payload}.${flipped}`,
    'forged claims': `Bearer ${header}.${forged}.${signature}`,
    'expired token': `Bearer ${await t.tokenFor(call.username, { expiresInSeconds: -60 })}`,
    'wrong audience': `Bearer ${await t.tokenFor(call.username, { audience: 'another-api' })}`,
    'wrong issuer': `Bearer ${await t.tokenFor(call.username, { issuer: 'http://evil.example/auth' })}`,
  };
  for (const [name, authorization] of Object.entries(cases)) {
    const response = await send(authorization);
    expect({ case: name, status: response.statusCode }).toEqual({ case: name, status: 401 });
    expect(response.json()).toMatchObject({ status: 401, error: 'Unauthorized' });
  }
}
