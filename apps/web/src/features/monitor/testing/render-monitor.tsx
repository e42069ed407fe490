import type { render } from '@testing-library/react';
import type { AreaKind, ProcessingEvent, Role } from '@railwatt/contracts';
import { renderScreens } from '../../../components/ui/screen-harness';
import { EventMonitorPage } from '../components/event-monitor-page';
import { ParameterOverviewPage } from '../components/parameter-overview/parameter-overview-page';
import { ProcessLogPage } from '../components/process-log-page';
import { ProcessRunPage } from '../components/process-run-page';
import { ErrorViewPage, EventViewPage, ProcessResultViewPage } from '../components/process-views';
import { ProcessesPage } from '../components/processes-page';

export { mockFetch, procedureResult as result, type Call } from '../../../components/ui/screen-harness';

export const RUNNER: Role[] = ['settlement-area-responsible'];
export const AUDIT: Role[] = ['audit-settlement-area-responsible'];

/**
 * Renders the Monitor's process screens and the parameter overview at `path`, signed in with `roles`
 * in a Norwegian area.
 */
export function renderMonitor(
  path: string,
  { roles = RUNNER, kind = 'norway' as AreaKind } = {},
): ReturnType<typeof render> {
  const area = { uuid: `uuid-${kind}`, name: kind, key: kind, kind, timeZone: 'Europe/Oslo', tenantId: `uuid-${kind}` };
  return renderScreens(
    [
      { path: '/monitor/processes', element: <ProcessesPage /> },
      { path: '/monitor/processes/cebd-preprocessing/log', element: <ProcessLogPage procedure="cebd-preprocessing" /> },
      {
        path: '/monitor/processes/metered-energy-aggregation/log',
        element: <ProcessLogPage procedure="metered-energy-aggregation" />,
      },
      { path: '/monitor/processes/cebd-preprocessing/run', element: <ProcessRunPage procedure="cebd-preprocessing" /> },
      {
        path: '/monitor/processes/metered-energy-aggregation/run',
        element: <ProcessRunPage procedure="metered-energy-aggregation" />,
      },
      { path: '/monitor/eventmonitor', element: <EventMonitorPage /> },
      { path: '/monitor/errorview', element: <ErrorViewPage /> },
      { path: '/monitor/eventview', element: <EventViewPage /> },
      { path: '/monitor/processresultview', element: <ProcessResultViewPage /> },
      {
        path: '/monitor/parameteroverview',
        element: <ParameterOverviewPage titleKey="routes.monitor.parameterOverview" />,
      },
    ],
    path,
    { rolesInArea: roles, timeZone: 'Europe/Oslo', area },
  );
}

let nextId = 100;
export function event(overrides: Partial<ProcessingEvent> = {}): ProcessingEvent {
  const id = overrides.id ?? nextId++;
  return {
    id,
    procedureResultId: 7,
    processName: 'cebd-preprocessing',
    errorCode: '58',
    severity: 'HIGH',
    incidents: 1,
    message: null,
    entityIdentifier: 'NVR_1_917600100013_1',
    time: '2024-01-01T10:00:00Z',
    ...overrides,
  };
}

export const pageOf = <T,>(content: T[], totalElements = content.length, size = 20) => ({
  content,
  totalElements,
  totalPages: Math.max(1, Math.ceil(totalElements / size)),
});
