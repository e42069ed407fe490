import { createStatusSummaryStore } from '../../../lib/stores/status-summary';

/** The fleet overview's last partly failed status change, for /fleet/overview/errorsummary. */
export const useStatusSummaryStore = createStatusSummaryStore();
