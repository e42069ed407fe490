import { API_RATE_LIMIT, TENANT_HEADER } from '@railwatt/contracts';
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

export interface ApiClientOptions {
  baseUrl: () => string;
  token: () => Promise<string | null> | string | null;
  tenantId: () => string | null;
  limiter?: RateLimiter;
  fetch?: typeof fetch;
}

export interface ApiClient {
  request<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  /** Aborts every request in flight (area switch). Their callers get a CancelledError. */
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

/**
 * The fetch-based API client (ARCHITECTURE.md "The path of a request"): bearer token, tenant header,
 * at most 5 requests per second, keyed latest-wins, abort-all on area switch. It has no side effects
 * beyond the request: failures are thrown as ApiError / CancelledError for the caller to present.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const limiter = options.limiter ?? createRateLimiter(API_RATE_LIMIT);
  const keyed = new Map<string, AbortController>();
  let areaController = new AbortController();

  async function request<T>(path: string, o: RequestOptions = {}): Promise<T> {
    const controller = new AbortController();
    if (o.key) {
      keyed.get(o.key)?.abort();
      keyed.set(o.key, controller);
    }
    const unlink = link(controller, [areaController.signal, o.signal]);
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    try {
      await limiter.acquire(controller.signal);
      const headers: Record<string, string> = { Accept: 'application/json', ...o.headers };
      const token = await options.token();
      if (token) headers.Authorization = `Bearer ${token}`;
      const tenantId = o.tenant === false ? null : options.tenantId();
      if (tenantId) headers[TENANT_HEADER] = tenantId;
      let body: BodyInit | undefined;
      if (o.body instanceof FormData || o.body instanceof Blob) body = o.body;
      else if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['Content-Type'] = 'application/json';
      }
      if (controller.signal.aborted) throw new CancelledError();
      let response: Response;
      try {
        response = await fetchImpl(buildUrl(options.baseUrl(), path, o.query), {
          method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
          headers,
          body,
          signal: controller.signal,
        });
      } catch (error) {
        if (controller.signal.aborted) throw new CancelledError();
        throw new ApiError(0, '', null, { cause: error });
      }
      if (!response.ok) {
        const envelope = parseEnvelope(await response.json().catch(() => null));
        if (controller.signal.aborted) throw new CancelledError();
        throw new ApiError(response.status, response.statusText, envelope);
      }
      const type = o.responseType ?? 'json';
      const result =
        type === 'blob'
          ? await response.blob()
          : type === 'text'
            ? await response.text()
            : response.status === 204
              ? undefined
              : await response.json().catch(() => undefined);
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

  return {
    request,
    abortAll() {
      areaController.abort();
      areaController = new AbortController();
    },
  };
}
