import type { AreaSummary, Role } from '@railwatt/contracts';
import { renderScreens } from '../../../components/ui/screen-harness';
import { AreaRegistrationPage } from '../components/areas/area-registration-page';
import { AreasErrorSummaryPage } from '../components/areas/areas-error-summary-page';
import { AreasOverviewPage } from '../components/areas/areas-overview-page';
import { InfrastructureSegmentsHistoryPage } from '../components/areas/segments-history-page';

export { mockFetch, type Call } from '../../../components/ui/screen-harness';

export const area = (over: Partial<AreaSummary> = {}): AreaSummary => ({
  uuid: '00000000-0000-4000-8000-000000000001',
  name: 'NO1 grid',
  type: 'GridArea',
  active: true,
  state: 'ACTIVE',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [10, 59],
        [11, 59],
        [11, 60],
        [10, 59],
      ],
    ],
  },
  parentRef: null,
  validFrom: '2015-01-01T00:00:00.000Z',
  validTo: '2070-01-01T00:00:00.000Z',
  ...over,
});

/** Renders the area screens at `path` with the app's providers, signed in with `roles` in Norway. */
export function renderAreas(path: string, { roles = ['erex-administrator'] as Role[] } = {}) {
  return renderScreens(
    [
      { path: '/infrastructure/areas/overview', element: <AreasOverviewPage /> },
      { path: '/infrastructure/areas/overview/errorsummary', element: <AreasErrorSummaryPage /> },
      { path: '/infrastructure/areas/registration', element: <AreaRegistrationPage /> },
      { path: '/infrastructure/segmentshistory', element: <InfrastructureSegmentsHistoryPage /> },
    ],
    path,
    { rolesInArea: roles, timeZone: 'Europe/Oslo' },
  );
}
