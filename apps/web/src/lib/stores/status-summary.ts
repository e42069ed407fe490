import { create } from 'zustand';
import type { StatusAction, StatusChangeItem } from '@railwatt/contracts';
import { registerStoreReset } from './reset-registry';

export interface StatusSummary {
  action: StatusAction;
  failed: StatusChangeItem[];
  succeeded: StatusChangeItem[];
  /** Where "back" goes from the summary (the overview as the user left it). */
  parentPage: string;
}

export interface StatusSummaryState {
  /** The outcome of the last partly failed status change, or null when there is none to show. */
  summary: StatusSummary | null;
  show(summary: StatusSummary): void;
  clear(): void;
}

/**
 * A store for the outcome of a partly failed status change, handed from an overview to its error
 * summary page (product.md §4). A store rather than router state so a reload of the summary does not
 * resend it, and an area switch empties it. Each overview owns one (fleet, areas, the entity kit), so
 * one screen's summary never shows on another's page.
 */
export function createStatusSummaryStore() {
  const useStore = create<StatusSummaryState>()((set) => ({
    summary: null,
    show: (summary) => set({ summary }),
    clear: () => set({ summary: null }),
  }));
  registerStoreReset(() => useStore.getState().clear());
  return useStore;
}
