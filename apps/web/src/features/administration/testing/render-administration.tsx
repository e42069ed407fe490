import type { AreaKind, Role } from '@railwatt/contracts';
import type { AreaOption } from '../../../lib/stores/area-selection';
import { renderScreens } from '../../../components/ui/screen-harness';
import { UserOverviewPage, UserViewAcrossPage } from '../components/users/user-overview-page';
import { UserRegisterAcrossPage, UserRegistrationPage } from '../components/users/user-registration-page';
import { OrganisationOverviewPage } from '../components/organisations/organisation-overview-page';
import { OrganisationRegistrationPage } from '../components/organisations/organisation-registration-page';

export { mockFetch, type Call } from '../../../components/ui/screen-harness';

export const AREAS = {
  norway: '00000000-0000-4000-8000-000000000002',
  sweden: '00000000-0000-4000-8000-000000000003',
  administration: '00000000-0000-4000-8000-000000000011',
} as const;

const area = (kind: AreaKind, uuid: string, name: string, timeZone = 'Europe/Oslo'): AreaOption => ({
  uuid,
  name,
  key: kind,
  kind,
  timeZone,
  tenantId: uuid,
});

export const AREA_OPTIONS: AreaOption[] = [
  area('norway', AREAS.norway, 'Norway'),
  area('sweden', AREAS.sweden, 'Sweden', 'Europe/Stockholm'),
  area('administration', AREAS.administration, 'Administration'),
];

/** Renders the users and organisations screens at `path`, signed in with `roles` in `kind` (default Norway). */
export function renderAdministration(
  path: string,
  { roles = ['erex-administrator'] as Role[], kind = 'norway' as 'norway' | 'administration' } = {},
) {
  const selected = AREA_OPTIONS.find((a) => a.kind === kind)!;
  return renderScreens(
    [
      { path: '/administration/user/registration', element: <UserRegistrationPage /> },
      { path: '/administration/user/overview', element: <UserOverviewPage /> },
      { path: '/administration/user/registeracrosssettlementareas', element: <UserRegisterAcrossPage /> },
      { path: '/administration/user/viewacrosssettlementareas', element: <UserViewAcrossPage /> },
      { path: '/administration/organisation/registration', element: <OrganisationRegistrationPage /> },
      { path: '/administration/organisation/overview', element: <OrganisationOverviewPage /> },
    ],
    path,
    { areas: AREA_OPTIONS, area: selected, rolesInArea: roles, timeZone: selected.timeZone },
  );
}
