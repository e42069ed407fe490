import { create } from 'zustand';
import type { StatusAction, StatusChangeItem } from '@railwatt/contracts';
import { registerStoreReset } from '../../../lib/stores/reset-registry';

interface StatusSummaryState {
  action: StatusAction | null;
  failed: StatusChangeItem[];
  succeeded: StatusChangeItem[];
  /** Where "back" goes from the summary (the page the change started on). */
  parentPage: string;
  show(summary: {
    action: StatusAction;
    failed: StatusChangeItem[];
    succeeded: StatusChangeItem[];
    parentPage: string;
  }): void;
  clear(): void;
}

/**
 * The outcome of a partly failed status change, handed from the overview to the error summary page
 * (product.md §4). A store rather than router state so a reload of the summary does not resend it
 * and an area switch empties it.
 */
export const useStatusSummaryStore = create<StatusSummaryState>()((set) => ({
  action: null,
  failed: [],
  succeeded: [],
  parentPage: '/fleet/overview',
  show: (summary) => set(summary),
  clear: () => set({ action: null, failed: [], succeeded: [], parentPage: '/fleet/overview' }),
}));

registerStoreReset(() => useStatusSummaryStore.getState().clear());
