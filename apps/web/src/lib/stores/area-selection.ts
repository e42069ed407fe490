import {
  areaKey,
  isAreaKind,
  MASTER_DATA_AREA,
  rolesInArea,
  type AreaKind,
  type MarketFunction,
  type Role,
  type SettlementArea,
} from '@railwatt/contracts';

/** Key under which the selected area id is kept in session and local storage. */
export const AREA_STORAGE_KEY = 'selectedSettlementArea';

/** The pseudo-area id of master-data mode (it has no tenant of its own on the server). */
export const MASTER_DATA_ID = 'masterdata';

export interface AreaOption {
  /** Area uuid, or MASTER_DATA_ID. */
  uuid: string;
  /** The original name as the server spells it ("Master Data" for the pseudo-area). */
  name: string;
  /** Lowercased, space-free name (product.md §1). */
  key: string;
  kind: AreaKind;
  timeZone: string;
  /** What goes into the current-tenant-id header. */
  tenantId: string;
}

export const SETTLEMENT_BASE_VERIFICATION_PATH = '/settlementandverification/settlementbaseverification';
export const USER_REGISTRATION_PATH = '/administration/user/registration';

export const holdsAdministrator = (functions: readonly MarketFunction[]): boolean =>
  functions.some((f) => f.role === 'erex-administrator');

/**
 * The areas offered in the selector (product.md §1): only settlement-partner areas, with the
 * lowercased space-free name and the original name, sorted by name. Names that are no known area
 * kind are dropped and logged ("Filtering areas logs errors").
 *
 * Master-data mode: the spec's first reading ("adds an area labelled Master Data with time zone
 * Europe/Oslo") is taken. The pseudo-area is offered, and selectable, to users holding
 * erex-administrator; the "another reading" (present but disabled) is not followed, because a disabled
 * entry would leave the master-data routes of §2 unreachable.
 */
export function toAreaOptions(list: readonly SettlementArea[], functions: readonly MarketFunction[]): AreaOption[] {
  const options: AreaOption[] = [];
  for (const area of list) {
    if (!area.settlementPartner) continue;
    const key = areaKey(area.name);
    if (!isAreaKind(key)) {
      console.error(`unknown settlement area dropped: ${area.name}`);
      continue;
    }
    options.push({ uuid: area.uuid, name: area.name, key, kind: key, timeZone: area.timeZone, tenantId: area.uuid });
  }
  if (holdsAdministrator(functions) && options.length > 0) {
    // Master-data calls need some tenant header; the administration area's is the natural one.
    const tenant = options.find((o) => o.kind === 'administration') ?? options[0]!;
    options.push({
      uuid: MASTER_DATA_ID,
      name: MASTER_DATA_AREA.name,
      key: areaKey(MASTER_DATA_AREA.name),
      kind: MASTER_DATA_AREA.kind,
      timeZone: MASTER_DATA_AREA.timeZone,
      tenantId: tenant.tenantId,
    });
  }
  return options.sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/** Initial area: session storage, else local storage, else the first; each only if it is in the list. */
export function pickInitialArea(
  options: readonly AreaOption[],
  sessionValue: string | null,
  localValue: string | null,
): AreaOption | null {
  const find = (id: string | null): AreaOption | undefined => (id ? options.find((o) => o.uuid === id) : undefined);
  return find(sessionValue) ?? find(localValue) ?? options[0] ?? null;
}

/** The user's functions in an area; in master-data mode the administrator role only. */
export function rolesForArea(functions: readonly MarketFunction[], area: AreaOption): Role[] {
  if (area.kind === 'masterdata') return holdsAdministrator(functions) ? ['erex-administrator'] : [];
  return rolesInArea(functions, area.uuid);
}

/**
 * A consumer for the landing rules: holds consumer, and nothing but consumer and train-run-data-provider
 * (the demo user "consumer-provider" is one; an administrator who also holds consumer is not).
 */
export const landsAsConsumer = (roles: readonly Role[]): boolean =>
  roles.includes('consumer') && roles.every((r) => r === 'consumer' || r === 'train-run-data-provider');

/**
 * Where a switch lands (product.md §1): administration -> user registration; exchange -> /monitor for a
 * consumer, else /; other areas -> settlement base verification for a consumer, else /. Master data -> /.
 */
export function landingAfterSwitch(kind: AreaKind, roles: readonly Role[]): string {
  if (kind === 'administration') return USER_REGISTRATION_PATH;
  if (kind === 'masterdata') return '/';
  if (kind === 'exchange') return landsAsConsumer(roles) ? '/monitor' : '/';
  return landsAsConsumer(roles) ? SETTLEMENT_BASE_VERIFICATION_PATH : '/';
}
