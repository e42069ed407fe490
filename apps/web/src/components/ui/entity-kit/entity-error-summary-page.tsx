import { PageTitle } from '../page-title';
import { StatusErrorSummary } from '../status-error-summary';
import type { EntityPageProps } from './entity-registration-page';
import { useEntityStatusSummaryStore } from './status-summary-store';
import { useEntityKitContext, useEntityKitT } from './use-entity-kit';

const COLUMNS = { name: 'field.name', validFrom: 'field.validFrom', validTo: 'field.validTo', status: 'field.status' };

/** .../overview/errorsummary: what a partly failed status change did and did not save (product.md §4). */
export function EntityErrorSummaryPage({ section, ...screen }: EntityPageProps) {
  const { t } = useEntityKitT();
  const { timeZone } = useEntityKitContext(section);
  const summary = useEntityStatusSummaryStore((s) => s.summary);
  return (
    <StatusErrorSummary
      title={screen.titleKey && <PageTitle titleKey={screen.titleKey} titleArgs={screen.titleArgs} />}
      summary={summary}
      overviewPath={section.paths.overview}
      timeZone={timeZone}
      t={t}
      columnKeys={COLUMNS}
    />
  );
}
