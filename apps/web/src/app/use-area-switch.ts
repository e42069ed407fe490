import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../lib/api';
import { refreshToken } from '../lib/auth/auth';
import type { AreaOption } from '../lib/stores/area-selection';
import { switchArea } from '../lib/stores/market-store';
import { resetAllStores } from '../lib/stores/reset-registry';

/** The area switch of product.md §1 wired to the real token refresh, API client, stores and router. */
export function useAreaSwitch(): (area: AreaOption) => Promise<boolean> {
  const navigate = useNavigate();
  return useCallback(
    (area: AreaOption) =>
      switchArea(area, {
        refreshToken,
        abortAll: () => api.abortAll(),
        resetStores: resetAllStores,
        navigate: (path) => void navigate(path),
      }),
    [navigate],
  );
}
