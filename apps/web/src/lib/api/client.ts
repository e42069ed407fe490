import {
  API_RATE_LIMIT,
  fillPath,
  TENANT_HEADER,
  type CallAnswer,
  type CallBodyInput,
  type CallDeclaration,
  type CallParamsInput,
  type CallQueryInput,
} from '@railwatt/contracts';
import { ApiError, CancelledError, parseEnvelope } from '../errors';
import { createRateLimiter, type RateLimiter } from './rate-limiter';

type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  query?: Record<string, QueryValue>;
  /** JSON-serialised unless it is FormData or a Blob. */
  body?: unknown;
  /** Latest wins: a new request with the same key aborts the one it supersedes. */
  key?: string;
  signal?: AbortSignal;
  /** Send the current-tenant-id header (default true; the area list itself is asked without it). */
  tenant?: boolean;
  headers?: Record<string, string>;
  responseType?: 'json' | 'blob' | 'text';
}

/** Bytes of an upload body sent so far; `total` is 0 when the browser cannot tell the length. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions {
  /** Called as the body's bytes leave the browser (xhr.upload progress), and once when all are sent. */
  onProgress?: (progress: UploadProgress) => void;
  method?: 'POST' | 'PUT';
  query?: RequestOptions['query'];
  /** Latest wins, as for request(). */
  key?: string;
  signal?: AbortSignal;
  /** Send the current-tenant-id header (default true). */
  tenant?: boolean;
  /** Headers of the call itself (POST /cebd/import: tenant-name). */
  headers?: Record<string, string>;
}

export interface ApiClientOptions {
  baseUrl: () => string;
  token: () => Promise<string | null> | string | null;
  tenantId: () => string | null;
  limiter?: RateLimiter;
  fetch?: typeof fetch;
  /** Makes the XMLHttpRequest of an upload (tests pass a fake). */
  xhr?: () => XMLHttpRequest;
}

/** A field of a call's input: absent when the call has no such schema, optional when nothing in it is required. */
type InputField<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: never }
  : undefined extends T
    ? { [P in K]?: T }
    : object extends T
      ? { [P in K]?: T }
      : { [P in K]: T };

/** What `api.call` sends for a declared call: its path parameters, query and body, typed by its schemas. */
export type CallInput<C extends CallDeclaration> = InputField<'params', CallParamsInput<C>> &
  InputField<'query', CallQueryInput<C>> &
  InputField<'body', CallBodyInput<C>> &
  Pick<RequestOptions, 'key' | 'signal' | 'headers'>;

/** The input may be left out when nothing in it is required. */
type CallArgs<C extends CallDeclaration> = object extends CallInput<C> ? [input?: CallInput<C>] : [input: CallInput<C>];

export type CallUploadOptions<C extends CallDeclaration> = InputField<'params', CallParamsInput<C>> &
  InputField<'query', CallQueryInput<C>> &
  Pick<UploadOptions, 'onProgress' | 'key' | 'signal' | 'headers'>;

export interface ApiClient {
  /**
   * Makes a declared call (packages/contracts/src/calls): the URL from its path and parameters, the
   * method, the tenant header when its policy acts in an area, the body as JSON, and the answer parsed
   * by its response schema (a Blob for a download). The one way features call the server.
   */
  call<C extends CallDeclaration>(call: C, ...args: CallArgs<C>): Promise<CallAnswer<C>>;
  /** The same for a multipart call (`upload: true`), with real upload progress. */
  callUpload<C extends CallDeclaration & { upload: true }>(
    call: C,
    body: FormData,
    options?: CallUploadOptions<C>,
  ): Promise<CallAnswer<C>>;
  request<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  /**
   * Sends a multipart body with real upload progress. It is the same call as request() (base, token,
   * tenant header, rate limit, keyed latest-wins, abort-all, ApiError / CancelledError) over
   * XMLHttpRequest, because fetch reports no upload progress. The answer is parsed as JSON.
   */
  upload<T = unknown>(path: string, body: FormData, options?: UploadOptions): Promise<T>;
  /** Aborts every request in flight, uploads included (area switch). Their callers get a CancelledError. */
  abortAll(): void;
}

function buildUrl(base: string, path: string, query: RequestOptions['query']): string {
  const url = `${base.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    params.append(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

/** Aborts `controller` when any of `signals` aborts; returns the unsubscribe function. */
function link(controller: AbortController, signals: (AbortSignal | undefined)[]): () => void {
  const abort = (): void => controller.abort();
  const live = signals.filter((s): s is AbortSignal => s !== undefined);
  for (const s of live) {
    if (s.aborted) controller.abort();
    else s.addEventListener('abort', abort, { once: true });
  }
  return () => live.forEach((s) => s.removeEventListener('abort', abort));
}

/** What both transports get from the shared part of a call: where, with which headers, until when. */
interface Call {
  url: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

/** A failed answer: the status plus the calls.md §8 envelope read from the body. */
const errorFromAnswer = (status: number, statusText: string, body: unknown): ApiError =>
  new ApiError(status, statusText, parseEnvelope(body));

/** No answer at all (network failure): ApiError status 0. */
const noAnswer = (cause: unknown): ApiError => new ApiError(0, '', null, { cause });

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One fetch: maps network failure and error statuses to ApiError, reads the body as asked. */
async function sendFetch(fetchImpl: typeof fetch, call: Call, o: RequestOptions): Promise<unknown> {
  const headers = { ...call.headers };
  let body: BodyInit | undefined;
  if (o.body instanceof FormData || o.body instanceof Blob) body = o.body;
  else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['Content-Type'] = 'application/json';
  }
  let response: Response;
  try {
    response = await fetchImpl(call.url, {
      method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal: call.signal,
    });
  } catch (error) {
    if (call.signal.aborted) throw new CancelledError();
    throw noAnswer(error);
  }
  if (!response.ok) {
    const envelope = await response.json().catch(() => null);
    if (call.signal.aborted) throw new CancelledError();
    throw errorFromAnswer(response.status, response.statusText, envelope);
  }
  const type = o.responseType ?? 'json';
  if (type === 'blob') return response.blob();
  if (type === 'text') return response.text();
  return response.status === 204 ? undefined : response.json().catch(() => undefined);
}

/**
 * One XMLHttpRequest with upload progress. The call's signal aborts it (xhr.abort()), which rejects
 * with CancelledError like an aborted fetch; error statuses become the same ApiError as in sendFetch.
 */
function sendXhr(xhr: XMLHttpRequest, call: Call, body: FormData, o: UploadOptions): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const abort = (): void => xhr.abort();
    const settle = (outcome: () => void): void => {
      call.signal.removeEventListener('abort', abort);
      outcome();
    };
    xhr.open(o.method ?? 'POST', call.url);
    // No Content-Type: the browser writes multipart/form-data with its boundary, as fetch does.
    for (const [name, value] of Object.entries(call.headers)) xhr.setRequestHeader(name, value);
    const onProgress = o.onProgress;
    if (onProgress) {
      xhr.upload.addEventListener('progress', (e) =>
        onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 }),
      );
      // Every byte is out: the server is working on the answer now.
      xhr.upload.addEventListener('load', (e) => {
        const sent = e.lengthComputable ? e.total : e.loaded;
        onProgress({ loaded: sent, total: sent });
      });
    }
    xhr.addEventListener('load', () =>
      settle(() => {
        const answer = parseJson(xhr.responseText);
        if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.status === 204 ? undefined : answer);
        else reject(errorFromAnswer(xhr.status, xhr.statusText, answer ?? null));
      }),
    );
    xhr.addEventListener('error', () => settle(() => reject(noAnswer(new Error('upload failed')))));
    xhr.addEventListener('timeout', () => settle(() => reject(noAnswer(new Error('upload timed out')))));
    xhr.addEventListener('abort', () => settle(() => reject(new CancelledError())));
    if (call.signal.aborted) {
      settle(() => reject(new CancelledError()));
      return;
    }
    call.signal.addEventListener('abort', abort, { once: true });
    xhr.send(body);
  });
}

/**
 * The API client (ARCHITECTURE.md "The path of a request"): bearer token, tenant header, at most
 * 5 requests per second, keyed latest-wins, abort-all on area switch. Calls go over fetch; uploads
 * over XMLHttpRequest for their byte progress, sharing everything else through `call()`. It has no
 * side effects beyond the request: failures are thrown as ApiError / CancelledError for the caller.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const limiter = options.limiter ?? createRateLimiter(API_RATE_LIMIT);
  const keyed = new Map<string, AbortController>();
  let areaController = new AbortController();

  async function headersFor(o: { tenant?: boolean; headers?: Record<string, string> }) {
    const headers: Record<string, string> = { Accept: 'application/json', ...o.headers };
    const token = await options.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    const tenantId = o.tenant === false ? null : options.tenantId();
    if (tenantId) headers[TENANT_HEADER] = tenantId;
    return headers;
  }

  /**
   * The part every call shares whatever its transport: registration (key, area switch, caller's
   * signal), a slot of the rate limiter, headers, and discarding an answer that was cancelled.
   */
  async function call<T>(
    path: string,
    o: Pick<RequestOptions, 'query' | 'key' | 'signal' | 'tenant' | 'headers'>,
    send: (call: Call) => Promise<unknown>,
  ): Promise<T> {
    const controller = new AbortController();
    if (o.key) {
      keyed.get(o.key)?.abort();
      keyed.set(o.key, controller);
    }
    const unlink = link(controller, [areaController.signal, o.signal]);
    try {
      await limiter.acquire(controller.signal);
      const headers = await headersFor(o);
      if (controller.signal.aborted) throw new CancelledError();
      const result = await send({
        url: buildUrl(options.baseUrl(), path, o.query),
        headers,
        signal: controller.signal,
      });
      // A superseded or area-aborted answer is discarded even if it arrived.
      if (controller.signal.aborted) throw new CancelledError();
      return result as T;
    } catch (error) {
      if (controller.signal.aborted && !(error instanceof CancelledError)) throw new CancelledError();
      throw error;
    } finally {
      unlink();
      if (o.key && keyed.get(o.key) === controller) keyed.delete(o.key);
    }
  }

  function request<T>(path: string, o: RequestOptions = {}) {
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    return call<T>(path, o, (c) => sendFetch(fetchImpl, c, o));
  }
  function upload<T>(path: string, body: FormData, o: UploadOptions = {}) {
    const makeXhr = options.xhr ?? (() => new XMLHttpRequest());
    return call<T>(path, o, (c) => sendXhr(makeXhr(), c, body, o));
  }
  const parsed = <C extends CallDeclaration>(declared: C, answer: unknown) =>
    (declared.response && !declared.download ? declared.response.parse(answer) : answer) as CallAnswer<C>;

  return {
    request,
    upload,
    async call<C extends CallDeclaration>(declared: C, ...[input]: CallArgs<C>) {
      const given = (input ?? {}) as { params?: object; query?: RequestOptions['query']; body?: unknown } & Pick<
        RequestOptions,
        'key' | 'signal' | 'headers'
      >;
      const answer = await request(fillPath(declared.path, given.params as Record<string, unknown> | undefined), {
        method: declared.method,
        query: given.query,
        body: given.body,
        key: given.key,
        signal: given.signal,
        tenant: declared.access.tenant,
        // A call's own headers (the process log's Current-Tenant-ZoneId, calls.md §7).
        headers: given.headers,
        responseType: declared.download ? 'blob' : 'json',
      });
      return parsed(declared, answer);
    },
    async callUpload<C extends CallDeclaration & { upload: true }>(
      declared: C,
      body: FormData,
      o: CallUploadOptions<C> = {} as CallUploadOptions<C>,
    ) {
      const given = o as { params?: object; query?: RequestOptions['query'] } & Pick<
        UploadOptions,
        'onProgress' | 'key' | 'signal' | 'headers'
      >;
      const answer = await upload(fillPath(declared.path, given.params as Record<string, unknown> | undefined), body, {
        method: declared.method === 'PUT' ? 'PUT' : 'POST',
        query: given.query,
        key: given.key,
        signal: given.signal,
        onProgress: given.onProgress,
        tenant: declared.access.tenant,
        headers: given.headers,
      });
      return parsed(declared, answer);
    },
    abortAll() {
      areaController.abort();
      areaController = new AbortController();
    },
  };
}
