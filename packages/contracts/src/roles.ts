import { z } from 'zod';

/** The ten market functions (product.md §6). The spelling here is the contract everywhere. */
export const ROLES = [
  'erex-administrator',
  'settlement-area-responsible',
  'audit-settlement-area-responsible',
  'erex-settlement-operator',
  'audit-erex-settlement-operator',
  'exchange-operator',
  'cp-admin',
  'vehicle-keeper',
  'consumer',
  'train-run-data-provider',
] as const;

export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** product.md §6: settlement role group. */
export const SETTLEMENT_ROLE_GROUP: readonly Role[] = [
  'erex-administrator',
  'settlement-area-responsible',
  'audit-settlement-area-responsible',
  'erex-settlement-operator',
  'audit-erex-settlement-operator',
  'train-run-data-provider',
  'consumer',
];

/** product.md §6: exchange role group. */
export const EXCHANGE_ROLE_GROUP: readonly Role[] = [
  'erex-administrator',
  'exchange-operator',
  'cp-admin',
  'vehicle-keeper',
  'consumer',
];

export const AREA_RESPONSIBLE_ROLES: readonly Role[] = [
  'settlement-area-responsible',
  'audit-settlement-area-responsible',
];

export const ALL_ROLES: readonly Role[] = ROLES;

/** Every role except the given ones. */
export const rolesExcept = (...excluded: Role[]): Role[] => ROLES.filter((r) => !excluded.includes(r));
