import type { render } from '@testing-library/react';
import type { Role } from '@railwatt/contracts';
import { renderScreens } from '../../../components/ui/screen-harness';
import { FleetOverviewPage } from '../components/fleet-overview-page';
import { FleetRegistrationPage } from '../components/fleet-registration-page';
import { FleetErrorSummaryPage } from '../components/fleet-error-summary-page';
import { SegmentsHistoryPage } from '../components/segments-history-page';
import { FleetImportPage } from '../components/fleet-import-page';
import { MasterdataUpdatesPage } from '../components/masterdata-updates-page';

export { mockFetch, type Call } from '../../../components/ui/screen-harness';

/** Renders the fleet screens at `path` with the app's providers, signed in with `roles` in Norway. */
export function renderFleet(path: string, { roles = ['vehicle-keeper'] as Role[] } = {}): ReturnType<typeof render> {
  return renderScreens(
    [
      { path: '/fleet/overview', element: <FleetOverviewPage /> },
      { path: '/fleet/registration', element: <FleetRegistrationPage /> },
      { path: '/fleet/segmentshistory', element: <SegmentsHistoryPage /> },
      { path: '/fleet/overview/errorsummary', element: <FleetErrorSummaryPage /> },
      { path: '/fleet/import', element: <FleetImportPage /> },
      { path: '/fleet/masterdata-updates', element: <MasterdataUpdatesPage /> },
    ],
    path,
    { rolesInArea: roles, timeZone: 'Europe/Oslo' },
  );
}
