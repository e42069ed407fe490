import { COUNTRY_AREA_NAMES, type AreaKind, type Role } from '@railwatt/contracts';
import type { Database } from '../db/client.js';
import { hashPassword } from '../modules/user/passwords.js';
import { areaUuid } from './areas.js';

/** Every demo user signs in with this password. */
export const DEMO_PASSWORD = 'demo';

export interface DemoUser {
  username: string;
  firstName: string;
  lastName: string;
  /** Market functions, each held in the listed areas. */
  functions: readonly { role: Role; areas: readonly AreaKind[] }[];
}

const COUNTRIES: readonly AreaKind[] = COUNTRY_AREA_NAMES;
const ALL_AREAS: readonly AreaKind[] = [...COUNTRIES, 'exchange', 'administration'];
const COUNTRIES_AND_EXCHANGE: readonly AreaKind[] = [...COUNTRIES, 'exchange'];

/** One user per role, named as the role, plus two users who hold two roles. */
export const DEMO_USERS: readonly DemoUser[] = [
  {
    username: 'erex-administrator',
    firstName: 'Erika',
    lastName: 'Admin',
    functions: [{ role: 'erex-administrator', areas: ALL_AREAS }],
  },
  {
    username: 'settlement-area-responsible',
    firstName: 'Sara',
    lastName: 'Responsible',
    functions: [{ role: 'settlement-area-responsible', areas: [...COUNTRIES, 'administration'] }],
  },
  {
    username: 'audit-settlement-area-responsible',
    firstName: 'Aud',
    lastName: 'Responsible',
    functions: [{ role: 'audit-settlement-area-responsible', areas: COUNTRIES }],
  },
  {
    username: 'erex-settlement-operator',
    firstName: 'Olav',
    lastName: 'Operator',
    functions: [{ role: 'erex-settlement-operator', areas: COUNTRIES }],
  },
  {
    username: 'audit-erex-settlement-operator',
    firstName: 'Anna',
    lastName: 'Auditor',
    functions: [{ role: 'audit-erex-settlement-operator', areas: COUNTRIES }],
  },
  {
    username: 'exchange-operator',
    firstName: 'Eskil',
    lastName: 'Exchange',
    functions: [{ role: 'exchange-operator', areas: ['exchange'] }],
  },
  {
    username: 'cp-admin',
    firstName: 'Carla',
    lastName: 'Parker',
    functions: [{ role: 'cp-admin', areas: COUNTRIES_AND_EXCHANGE }],
  },
  {
    username: 'vehicle-keeper',
    firstName: 'Viktor',
    lastName: 'Keeper',
    functions: [{ role: 'vehicle-keeper', areas: COUNTRIES_AND_EXCHANGE }],
  },
  {
    username: 'consumer',
    firstName: 'Connie',
    lastName: 'Consumer',
    functions: [{ role: 'consumer', areas: COUNTRIES_AND_EXCHANGE }],
  },
  {
    username: 'train-run-data-provider',
    firstName: 'Trine',
    lastName: 'Provider',
    functions: [{ role: 'train-run-data-provider', areas: COUNTRIES }],
  },
  {
    username: 'consumer-provider',
    firstName: 'Conrad',
    lastName: 'Provider',
    functions: [
      { role: 'consumer', areas: COUNTRIES_AND_EXCHANGE },
      { role: 'train-run-data-provider', areas: COUNTRIES },
    ],
  },
  {
    username: 'keeper-cpadmin',
    firstName: 'Kari',
    lastName: 'Keeper',
    functions: [
      { role: 'cp-admin', areas: COUNTRIES_AND_EXCHANGE },
      { role: 'vehicle-keeper', areas: COUNTRIES_AND_EXCHANGE },
    ],
  },
];

/** The demo users as README and the start-up log list them. */
export const demoUserSummary = (): { username: string; displayName: string; roles: Role[] }[] =>
  DEMO_USERS.map((u) => ({
    username: u.username,
    displayName: `${u.firstName} ${u.lastName}`,
    roles: u.functions.map((f) => f.role),
  }));

/** Seeder: demo users with their area-scoped market functions (idempotent; existing users keep their password). */
export async function seedUsers(database: Database): Promise<void> {
  // One hash for all: scrypt is deliberately slow, and every demo user has the same password.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const user of DEMO_USERS) {
    await database.query(
      `INSERT INTO app_user (username, first_name, last_name, email, password_hash)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (username) DO NOTHING`,
      [user.username, user.firstName, user.lastName, `${user.username}@railwatt.example`, passwordHash],
    );
    const roles = user.functions.flatMap((f) => f.areas.map(() => f.role));
    const areas = user.functions.flatMap((f) => f.areas.map((kind) => areaUuid(kind)));
    await database.query(
      `INSERT INTO user_market_function (username, role, area_uuid)
       SELECT $1, role, area_uuid FROM unnest($2::text[], $3::uuid[]) AS f(role, area_uuid)
       ON CONFLICT DO NOTHING`,
      [user.username, roles, areas],
    );
  }
}
