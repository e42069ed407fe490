import { describe, expect, it, vi } from 'vitest';
import { ApiError, apiErrorMessages, CancelledError, isCancelled } from '../errors';
import { createApiClient } from './client';
import { createRateLimiter } from './rate-limiter';

interface Call {
  url: string;
  init: RequestInit;
  respond(body: unknown, status?: number): void;
}

/** A fetch whose answers the test releases; it rejects like the browser when its signal aborts. */
function fakeFetch() {
  const calls: Call[] = [];
  const fetch = vi.fn(
    (url: string, init: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        calls.push({
          url,
          init,
          respond: (body, status = 200) =>
            resolve(new Response(JSON.stringify(body), { status, statusText: status === 200 ? 'OK' : 'Bad Request' })),
        });
      }),
  );
  return { calls, fetch: fetch as unknown as typeof globalThis.fetch };
}

const client = (f: typeof fetch, tenant: string | null = 'tenant-1') =>
  createApiClient({
    baseUrl: () => '/api',
    token: async () => 'tok',
    tenantId: () => tenant,
    fetch: f,
    limiter: createRateLimiter({ requests: 100, perMs: 1000 }),
  });

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('API client', () => {
  it('sends the bearer token and the current-tenant-id header to the API base', async () => {
    const { calls, fetch } = fakeFetch();
    const api = client(fetch);
    const answer = api.request('/domain/fleet', { query: { page: 0, ids: ['a', 'b'], skip: undefined } });
    await flush();
    expect(calls[0]!.url).toBe('/api/domain/fleet?page=0&ids=a%2Cb');
    expect(calls[0]!.init.headers).toMatchObject({ Authorization: 'Bearer tok', 'current-tenant-id': 'tenant-1' });
    calls[0]!.respond({ ok: 1 });
    await expect(answer).resolves.toEqual({ ok: 1 });
  });

  it('asks the area list without the tenant header', async () => {
    const { calls, fetch } = fakeFetch();
    void client(fetch).request('/user/settlementareas', { tenant: false });
    await flush();
    expect(calls[0]!.init.headers).not.toHaveProperty('current-tenant-id');
  });

  it('keyed requests: the latest wins and the superseded one is cancelled silently', async () => {
    const { calls, fetch } = fakeFetch();
    const api = client(fetch);
    const first = api.request('/search', { key: 'search' }).catch((e: unknown) => e);
    await flush();
    const second = api.request('/search', { key: 'search' });
    await flush();
    const superseded = await first;
    expect(superseded).toBeInstanceOf(CancelledError);
    calls[1]!.respond({ n: 2 });
    await expect(second).resolves.toEqual({ n: 2 });
    expect(apiErrorMessages(superseded, (k) => k)).toEqual([]);
  });

  it('discards a superseded answer that arrives anyway', async () => {
    const { calls, fetch } = fakeFetch();
    const api = client(fetch);
    const first = api.request('/x', { key: 'k' });
    await flush();
    calls[0]!.respond({ n: 1 });
    void api.request('/x', { key: 'k' });
    const outcome = await first.catch((e: unknown) => e);
    // Either the first answer was already through, or it is discarded as cancelled; never an error.
    expect(isCancelled(outcome) || (outcome as { n: number }).n === 1).toBe(true);
  });

  it('abortAll (area switch) cancels every request in flight', async () => {
    const { fetch } = fakeFetch();
    const api = client(fetch);
    const a = api.request('/a');
    const b = api.request('/b');
    await flush();
    api.abortAll();
    await expect(a).rejects.toBeInstanceOf(CancelledError);
    await expect(b).rejects.toBeInstanceOf(CancelledError);
    // New requests after the switch run normally.
    const { calls, fetch: fetch2 } = fakeFetch();
    const api2 = client(fetch2);
    const c = api2.request('/c');
    await flush();
    calls[0]!.respond([1]);
    await expect(c).resolves.toEqual([1]);
  });

  it('throws ApiError with the parsed envelope on an error status', async () => {
    const { calls, fetch } = fakeFetch();
    const p = client(fetch).request('/domain/save', { body: { name: 'x' } });
    await flush();
    expect(calls[0]!.init.method).toBe('POST');
    calls[0]!.respond({ timestamp: 't', status: 400, error: 'Bad Request', code: 'uniquename', message: 'x' }, 400);
    const error = await p.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).envelope).toMatchObject({ code: 'uniquename', message: 'x' });
  });

  it('turns a network failure into ApiError status 0 (no response)', async () => {
    const fetch = vi.fn(async () =>
      Promise.reject(new TypeError('Failed to fetch')),
    ) as unknown as typeof globalThis.fetch;
    const error = await client(fetch)
      .request('/x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(0);
  });
});
