import { StatusErrorSummary } from '../../../../components/ui/status-error-summary';
import type { ScreenProps } from '../../../../lib/routes';
import { useAreaSummaryStore } from '../../hooks/area-summary-store';
import { useAreaContext } from '../../hooks/use-area-context';
import { useAreasT } from '../../hooks/use-areas-t';
import { AreaPageTitle } from './area-page-title';

const COLUMNS = {
  name: 'entry.name',
  validFrom: 'entry.valid_from',
  validTo: 'entry.valid_to',
  status: 'entry.status',
};

/** /infrastructure/areas/overview/errorsummary: what a partly failed status change of areas did and did not save. */
export function AreasErrorSummaryPage(props: Partial<ScreenProps>) {
  const { t } = useAreasT();
  const { timeZone } = useAreaContext();
  const summary = useAreaSummaryStore((s) => s.summary);
  return (
    <StatusErrorSummary
      title={<AreaPageTitle screen={props} fallbackKey="errorsummary.title" />}
      summary={summary}
      overviewPath="/infrastructure/areas/overview"
      timeZone={timeZone}
      t={t}
      columnKeys={COLUMNS}
      testIdPrefix="areas-errorsummary"
    />
  );
}
