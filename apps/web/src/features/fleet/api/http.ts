import { api, type UploadProgress } from '../../../lib/api';

type Query = Record<string, string | number | boolean | undefined>;

/**
 * The fleet feature's calls go through the app's one API client (lib/api): bearer token, tenant
 * header, rate limit, keyed latest-wins. Failures arrive as ApiError / CancelledError (lib/errors).
 */
export function requestJson<T>(
  method: 'GET' | 'POST',
  path: string,
  init: { query?: Query; body?: unknown; signal?: AbortSignal; key?: string } = {},
): Promise<T> {
  return api.request<T>(path, { method, query: init.query, body: init.body, signal: init.signal, key: init.key });
}

export function requestBlob(path: string, init: { body?: unknown } = {}): Promise<Blob> {
  return api.request<Blob>(path, { method: 'POST', body: init.body, responseType: 'blob' });
}

/** A multipart upload with real byte progress (the client's XMLHttpRequest transport). */
export function uploadForm<T>(
  path: string,
  form: FormData,
  init: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<T> {
  return api.upload<T>(path, form, { onProgress: init.onProgress, signal: init.signal });
}
