import { LOADING_OVERLAY_DELAY_MS } from '@railwatt/contracts';
import { Loader, Overlay } from '@mantine/core';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** True once `active` has lasted `delayMs`; false at once when it ends. */
export function useDelayedFlag(active: boolean, delayMs: number): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    if (!active) {
      setElapsed(false);
      return undefined;
    }
    const timer = setTimeout(() => setElapsed(true), delayMs);
    return () => clearTimeout(timer);
  }, [active, delayMs]);
  return active && elapsed;
}

/**
 * The loading overlay (product.md §4): appears 500 ms after loading starts and hides at once. Loading
 * is what TanStack Query fetches or mutates; a quick answer never flashes the overlay.
 */
export function LoadingOverlay() {
  const { t } = useTranslation();
  // A screen following a run re-reads it every second (query meta `liveRefresh`): those reads of data
  // already shown are not loading, and an overlay over the page each time one is slow would block it.
  const fetching = useIsFetching({
    predicate: (query) => !(query.meta?.['liveRefresh'] && query.state.data !== undefined),
  });
  const mutating = useIsMutating();
  const shown = useDelayedFlag(fetching + mutating > 0, LOADING_OVERLAY_DELAY_MS);
  if (!shown) return null;
  return (
    <Overlay
      data-testid="loading-overlay"
      fixed
      backgroundOpacity={0.15}
      zIndex={300}
      center
      role="status"
      aria-label={t('shell.loading')}
    >
      <Loader />
    </Overlay>
  );
}
