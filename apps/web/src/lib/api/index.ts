import { getAccessToken } from '../auth/auth';
import { apiBase } from '../config';
import { useMarketStore } from '../stores/market-store';
import { createApiClient } from './client';

export {
  createApiClient,
  type ApiClient,
  type CallInput,
  type CallUploadOptions,
  type RequestOptions,
  type UploadOptions,
  type UploadProgress,
} from './client';
export { createRateLimiter, type RateLimiter } from './rate-limiter';

/** The one API client of the app: base from /config.json, token from the auth module, tenant from the area. */
export const api = createApiClient({
  baseUrl: apiBase,
  token: getAccessToken,
  tenantId: () => useMarketStore.getState().area?.tenantId ?? null,
});
