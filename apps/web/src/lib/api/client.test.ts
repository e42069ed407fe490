import { domainCalls, excelCalls, processingCalls, TENANT_ZONE_HEADER, userCalls } from '@railwatt/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiErrorMessages, CancelledError, isCancelled } from '../errors';
import { createApiClient } from './client';
import { createRateLimiter, type RateLimiter } from './rate-limiter';
import { createFakeXhr } from './testing/fake-xhr';

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

describe('API client upload (XMLHttpRequest)', () => {
  afterEach(() => vi.useRealTimers());

  const uploader = (limiter: RateLimiter = createRateLimiter({ requests: 100, perMs: 1000 })) => {
    const xhr = createFakeXhr();
    const fetch = vi.fn() as unknown as typeof globalThis.fetch;
    const api = createApiClient({
      baseUrl: () => '/api/',
      token: async () => 'tok',
      tenantId: () => 'tenant-1',
      fetch,
      limiter,
      xhr: xhr.create,
    });
    return { api, xhr, fetch };
  };

  const form = () => {
    const data = new FormData();
    data.append('files', new File(['x'.repeat(1000)], 'fleet.xlsx'), 'fleet.xlsx');
    return data;
  };

  it('posts the form to the API base with the bearer token and the current-tenant-id header', async () => {
    const { api, xhr } = uploader();
    const body = form();
    const answer = api.upload('/excel/domain/import', body, { query: { dryRun: true } });
    await flush();
    const sent = xhr.latest();
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/api/excel/domain/import?dryRun=true');
    expect(sent.headers).toMatchObject({
      Authorization: 'Bearer tok',
      'current-tenant-id': 'tenant-1',
      Accept: 'application/json',
    });
    // The browser writes the multipart Content-Type with its boundary.
    expect(sent.headers).not.toHaveProperty('Content-Type');
    expect(sent.body).toBe(body);
    sent.respond({ body: { success: true, sheetParseResults: [] } });
    await expect(answer).resolves.toEqual({ success: true, sheetParseResults: [] });
  });

  it('reports the bytes sent to onProgress, then all of them once the upload is through', async () => {
    const { api, xhr } = uploader();
    const onProgress = vi.fn();
    const answer = api.upload('/excel/domain/import', form(), { onProgress });
    await flush();
    xhr.latest().progress(0, 4000);
    xhr.latest().progress(1000, 4000);
    xhr.latest().progress(3000, 4000);
    expect(onProgress.mock.calls.map(([p]) => p)).toEqual([
      { loaded: 0, total: 4000 },
      { loaded: 1000, total: 4000 },
      { loaded: 3000, total: 4000 },
    ]);
    xhr.latest().finishUpload(4000);
    expect(onProgress).toHaveBeenLastCalledWith({ loaded: 4000, total: 4000 });
    xhr.latest().respond({ body: { ok: true } });
    await expect(answer).resolves.toEqual({ ok: true });
  });

  it('abortAll (area switch) aborts the upload and cancels it silently', async () => {
    const { api, xhr } = uploader();
    const answer = api.upload('/excel/domain/import', form()).catch((e: unknown) => e);
    await flush();
    api.abortAll();
    const outcome = await answer;
    expect(xhr.latest().aborted).toBe(true);
    expect(outcome).toBeInstanceOf(CancelledError);
    expect(apiErrorMessages(outcome, (k) => k)).toEqual([]);
  });

  it("the caller's signal and a newer upload with the same key cancel it too", async () => {
    const { api, xhr } = uploader();
    const caller = new AbortController();
    const own = api.upload('/a', form(), { signal: caller.signal }).catch((e: unknown) => e);
    const first = api.upload('/b', form(), { key: 'import' }).catch((e: unknown) => e);
    await flush();
    const second = api.upload('/b', form(), { key: 'import' });
    caller.abort();
    await expect(own).resolves.toBeInstanceOf(CancelledError);
    await expect(first).resolves.toBeInstanceOf(CancelledError);
    await flush();
    xhr.latest().respond({ body: { n: 2 } });
    await expect(second).resolves.toEqual({ n: 2 });
    expect(xhr.requests.map((r) => r.aborted)).toEqual([true, true, false]);
  });

  it('turns a 400 envelope into the same ApiError as other calls', async () => {
    const { api, xhr } = uploader();
    const answer = api.upload('/excel/domain/import', form()).catch((e: unknown) => e);
    await flush();
    xhr.latest().respond({
      status: 400,
      statusText: 'Bad Request',
      body: { timestamp: 't', status: 400, error: 'Bad Request', code: 'uniquename', message: 'Fleet A' },
    });
    const error = await answer;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).envelope).toMatchObject({ code: 'uniquename', message: 'Fleet A' });
    const t = (key: string) => (key === 'api_error_code.uniquename' ? 'Name must be unique' : key);
    expect(apiErrorMessages(error, t)).toEqual(['Name must be unique: Fleet A']);
  });

  it('turns a network failure into ApiError status 0', async () => {
    const { api, xhr } = uploader();
    const answer = api.upload('/excel/domain/import', form()).catch((e: unknown) => e);
    await flush();
    xhr.latest().fail();
    const error = await answer;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(0);
  });

  it('waits for a slot of the same rate limiter as the other calls', async () => {
    vi.useFakeTimers();
    const { api, xhr, fetch } = uploader(createRateLimiter({ requests: 1, perMs: 1000 }));
    vi.mocked(fetch).mockResolvedValue(new Response('{}'));
    await api.request('/a');
    const answer = api.upload('/excel/domain/import', form());
    await vi.advanceTimersByTimeAsync(500);
    // The fetch call took the only slot of this second: the upload has not been opened yet.
    expect(xhr.requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(500);
    expect(xhr.requests).toHaveLength(1);
    xhr.latest().respond({ body: {} });
    await expect(answer).resolves.toEqual({});
  });
});

describe('API client call (declared calls)', () => {
  const entity = {
    uuid: '11111111-1111-4111-8111-111111111111',
    name: 'El18-2241',
    type: 'TractionUnit',
    active: true,
    state: 'ACTIVE',
    timeRange: { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
    segments: [],
    lastModified: '2024-01-01T00:00:00Z',
    lastModifiedBy: 'keeper',
    comments: null,
    allInactive: false,
  };

  it('builds the URL from the declaration, sends its method and parses the answer with its schema', async () => {
    const { calls, fetch } = fakeFetch();
    const answer = client(fetch).call(domainCalls.byId, {
      params: { type: 'tractionunit', uuid: entity.uuid },
      query: { refTime: '2024-01-01T00:00:00Z' },
    });
    await flush();
    expect(calls[0]!.url).toBe(`/api/domain/tractionunit/id/${entity.uuid}?refTime=2024-01-01T00%3A00%3A00Z`);
    expect(calls[0]!.init.method).toBe('GET');
    expect(calls[0]!.init.headers).toMatchObject({ 'current-tenant-id': 'tenant-1' });
    calls[0]!.respond({ ...entity, evn: '917600100013' });
    await expect(answer).resolves.toMatchObject({ name: 'El18-2241', evn: '917600100013' });
  });

  it('refuses an answer that does not match the contract', async () => {
    const { calls, fetch } = fakeFetch();
    const answer = client(fetch).call(domainCalls.byId, { params: { type: 'tractionunit', uuid: entity.uuid } });
    await flush();
    calls[0]!.respond({ uuid: entity.uuid });
    await expect(answer).rejects.toThrow();
  });

  it('sends no tenant header for a call whose policy acts before an area is chosen', async () => {
    const { calls, fetch } = fakeFetch();
    void client(fetch).call(userCalls.settlementAreas);
    await flush();
    expect(calls[0]!.url).toBe('/api/user/settlementareas');
    expect(calls[0]!.init.headers).not.toHaveProperty('current-tenant-id');
  });

  it('posts the body as JSON and answers a download as a Blob', async () => {
    const { calls, fetch } = fakeFetch();
    const answer = client(fetch).call(excelCalls.domainExport, { body: { uuids: [entity.uuid] } });
    await flush();
    expect(calls[0]!.url).toBe('/api/excel/domain/export');
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ uuids: [entity.uuid] });
    calls[0]!.respond('xlsx bytes');
    // The bytes as they came (a Blob of the fetch implementation), not a parsed JSON value.
    expect(await (await answer).text()).toBe('"xlsx bytes"');
  });

  it("sends a call's own headers beside the tenant header (the process log's zone)", async () => {
    const { calls, fetch } = fakeFetch();
    void client(fetch).call(processingCalls.findBy, { body: {}, headers: { [TENANT_ZONE_HEADER]: 'Europe/Oslo' } });
    await flush();
    expect(calls[0]!.init.headers).toMatchObject({
      'current-tenant-id': 'tenant-1',
      'Current-Tenant-ZoneId': 'Europe/Oslo',
    });
  });

  it('uploads a declared multipart call and parses its answer', async () => {
    const xhr = createFakeXhr(() => ({ body: { success: true, sheetParseResults: [] } }));
    const api = createApiClient({
      baseUrl: () => '/api',
      token: async () => 'tok',
      tenantId: () => 'tenant-1',
      limiter: createRateLimiter({ requests: 100, perMs: 1000 }),
      xhr: xhr.create,
    });
    const body = new FormData();
    body.append('files', new File(['x'], 'fleet.xlsx'), 'fleet.xlsx');
    await expect(api.callUpload(excelCalls.domainImport, body)).resolves.toMatchObject({ success: true });
    expect(xhr.latest().url).toBe('/api/excel/domain/import');
  });
});
