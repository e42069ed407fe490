import type { render } from '@testing-library/react';
import type { AreaKind, DataLogEntry, DataLogPage, Role } from '@railwatt/contracts';
import { renderScreens } from '../../../components/ui/screen-harness';
import { DataLogPage as DataLogScreen } from '../components/datalog-page';
import { MasterDataLogPage } from '../components/masterdata-datalog-page';

export { mockFetch, type Call } from '../../../components/ui/screen-harness';

/** Renders the data-log screens at `path`, signed in with `roles` in the area of `kind`. */
export function renderDataLog(
  path: string,
  { roles = ['erex-administrator'] as Role[], kind = 'norway' as AreaKind } = {},
): ReturnType<typeof render> {
  const area = { uuid: `uuid-${kind}`, name: kind, key: kind, kind, timeZone: 'Europe/Oslo', tenantId: `uuid-${kind}` };
  return renderScreens(
    [
      { path: '/monitor/datalog', element: <DataLogScreen /> },
      { path: '/masterdata/datalog', element: <MasterDataLogPage /> },
    ],
    path,
    { rolesInArea: roles, timeZone: 'Europe/Oslo', area },
  );
}

let nextId = 1;
export function entry(overrides: Partial<DataLogEntry> = {}): DataLogEntry {
  return {
    id: nextId++,
    logTimeStamp: '2025-03-01T10:00:00.000Z',
    messageType: 'SDV_IMPORT',
    messageStatus: 'OK',
    messageText: null,
    fileName: 'file.sdv',
    username: 'someone',
    destination: null,
    baseId: null,
    trainId: null,
    hasResponse: false,
    messageLogTimeSeries: [],
    reports: [],
    ...overrides,
  };
}

export function page(content: DataLogEntry[], totalElements = content.length, size = 100): DataLogPage {
  return { content, totalElements, totalPages: Math.ceil(totalElements / size) };
}
