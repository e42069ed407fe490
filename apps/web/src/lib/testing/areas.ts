import type { AreaOption } from '../stores/area-selection';

/** Norway as the area selector offers it, for screen tests that select an area. */
export const NORWAY_AREA: AreaOption = {
  uuid: '00000000-0000-4000-8000-000000000002',
  name: 'Norway',
  key: 'norway',
  kind: 'norway',
  timeZone: 'Europe/Oslo',
  tenantId: '00000000-0000-4000-8000-000000000002',
};
