import type { render } from '@testing-library/react';
import { Outlet } from 'react-router';
import type { EntityKind, MinimalEntity, Role, VersionedEntity } from '@railwatt/contracts';
import { mockFetch as mockScreenFetch, renderScreens } from '../../screen-harness';
import { EntityErrorSummaryPage } from '../entity-error-summary-page';
import { EntityImportPage } from '../entity-import-page';
import { EntityOverviewPage } from '../entity-overview-page';
import { EntityKindFormPage, EntityRegistrationPage } from '../entity-registration-page';
import { EntitySegmentsHistoryPage } from '../entity-segments-history-page';
import type { EntitySection } from '../section';

export type { Call } from '../../screen-harness';

/** A section of some infrastructure and administration kinds, written by three roles. */
export const TEST_SECTION: EntitySection = {
  id: 'test',
  kinds: [
    'supplymeteringpoint',
    'gridareacrossing',
    'contract',
    'pricecategorytimeinterval',
    'track',
    'taxcategory',
    'publicholiday',
    'vatcategory',
  ],
  paths: {
    overview: '/kit/overview',
    registration: '/kit/registration',
    errorSummary: '/kit/overview/errorsummary',
    segmentsHistory: '/kit/segmentshistory',
    import: '/kit/import',
  },
  write: { roles: ['erex-administrator', 'settlement-area-responsible', 'cp-admin'] },
};

/** The kit's mocked fetch: unknown calls answer an empty list (the minimal lists every form asks for). */
export const mockFetch = (routes: Record<string, unknown>) => mockScreenFetch(routes, { unknown: 'empty-list' });

const RANGE = { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' };

export const minimal = (uuid: string, name: string, type: string): MinimalEntity => ({
  uuid,
  name,
  type,
  active: true,
  state: 'ACTIVE',
  timeRange: RANGE,
});

export function versioned(
  uuid: string,
  name: string,
  type: string,
  attributes: Record<string, unknown> = {},
  extra: Partial<VersionedEntity> = {},
): VersionedEntity {
  const segment = {
    id: 1,
    name,
    timeRange: RANGE,
    active: true,
    state: 'ACTIVE' as const,
    comments: null,
    lastModified: '2026-01-05T10:00:00Z',
    lastModifiedBy: 'erex-administrator',
    attributes,
  };
  return {
    uuid,
    name,
    type,
    active: true,
    state: 'ACTIVE',
    timeRange: RANGE,
    segments: [segment],
    lastModified: segment.lastModified,
    lastModifiedBy: segment.lastModifiedBy,
    comments: null,
    allInactive: false,
    ...attributes,
    ...extra,
  };
}

export const minimalPath = (kind: EntityKind) => `GET /api/domain/${kind}/minimal/all`;

/** Renders the kit's pages of TEST_SECTION at `path`, signed in with `roles` in Norway. */
export function renderEntityKit(
  path: string,
  { roles = ['erex-administrator'] as Role[] } = {},
): ReturnType<typeof render> {
  const s = TEST_SECTION;
  return renderScreens(
    [
      { path: '/kit/overview', element: <EntityOverviewPage section={s} /> },
      { path: '/kit/overview/errorsummary', element: <EntityErrorSummaryPage section={s} /> },
      { path: '/kit/import', element: <EntityImportPage section={s} /> },
      { path: '/kit/segmentshistory', element: <EntitySegmentsHistoryPage section={s} /> },
      {
        path: '/kit/registration',
        element: (
          <>
            <EntityRegistrationPage section={s} />
            <Outlet />
          </>
        ),
        children: s.kinds.map((kind) => ({ path: kind, element: <EntityKindFormPage section={s} /> })),
      },
    ],
    path,
    { rolesInArea: roles, timeZone: 'Europe/Oslo' },
  );
}
