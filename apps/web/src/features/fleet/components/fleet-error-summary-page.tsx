import { StatusErrorSummary } from '../../../components/ui/status-error-summary';
import type { ScreenProps } from '../../../lib/routes';
import { useStatusSummaryStore } from '../hooks/status-summary-store';
import { useFleetContext } from '../hooks/use-fleet-context';
import { useFleetT } from '../hooks/use-fleet-t';
import { FleetPageTitle } from './fleet-page-title';

const COLUMNS = {
  name: 'errorsummary.name',
  validFrom: 'entry.valid_from',
  validTo: 'entry.valid_to',
  status: 'entry.status',
};

/** /fleet/overview/errorsummary: what a partly failed status change did and did not save (product.md §4). */
export function FleetErrorSummaryPage(props: Partial<ScreenProps>) {
  const { t } = useFleetT();
  const { timeZone } = useFleetContext();
  const summary = useStatusSummaryStore((s) => s.summary);
  return (
    <StatusErrorSummary
      title={<FleetPageTitle screen={props} fallbackKey="errorsummary.title" />}
      summary={summary}
      overviewPath="/fleet/overview"
      timeZone={timeZone}
      t={t}
      columnKeys={COLUMNS}
    />
  );
}
