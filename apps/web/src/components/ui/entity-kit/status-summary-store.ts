import { createStatusSummaryStore } from '../../../lib/stores/status-summary';

/** An entity overview's last partly failed status change, for its section's error summary page. */
export const useEntityStatusSummaryStore = createStatusSummaryStore();
