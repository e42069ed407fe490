import { createStatusSummaryStore } from '../../../lib/stores/status-summary';

/** The areas overview's last partly failed status change, for /infrastructure/areas/overview/errorsummary. */
export const useAreaSummaryStore = createStatusSummaryStore();
