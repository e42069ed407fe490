import { randomBytes } from 'node:crypto';
import type {
  AreaKind,
  FieldError,
  Me,
  PageQuery,
  SettlementArea,
  User,
  UserArea,
  UserPage,
  UserSave,
} from '@railwatt/contracts';
import { COUNTRY_AREA_NAMES, holdsFunctionIn } from '@railwatt/contracts';
import type { Database } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import type { AuthContext } from '../../context.js';
import type { Executor, TxExecutor } from '../domain/sql.js';
import type { UserDirectory } from './keycloak-admin.js';
import { hashPassword } from './passwords.js';
import { assertMayRead, assertMayWrite, isUserAdmin, type UserActor } from './policy.js';
import {
  areaKinds,
  existingOrganisations,
  insertUser,
  listAreas,
  loadStoredUser,
  loadUserAreas,
  pageUsers,
  replaceUserArea,
  setPasswordHash,
  setUsersEnabled,
  updateUser,
  type StoredUserArea,
} from './repository.js';

/** The signed-in user as the token describes them. */
export function me(auth: AuthContext): Me {
  return {
    username: auth.username,
    firstName: auth.firstName,
    lastName: auth.lastName,
    displayName: auth.displayName,
    marketFunctions: auth.functions.map((f) => ({ role: f.role, areaId: f.areaId })),
  };
}

/** The areas in which the token holds at least one function (an unscoped function holds everywhere). */
export async function settlementAreas(database: Database, auth: AuthContext): Promise<SettlementArea[]> {
  const areas = await listAreas(database);
  return areas
    .filter((area) => holdsFunctionIn(auth.functions, area.uuid))
    .map(({ uuid, name, timeZone, settlementPartner }) => ({ uuid, name, timeZone, settlementPartner }));
}

// ---------------------------------------------------------------------------------------------
// User management (calls.md §7 "Users", product.md §5)
// ---------------------------------------------------------------------------------------------

/** product.md §5: saving a settlement-area user needs at least two organisation relations. */
export const MIN_SETTLEMENT_AREA_ORGANISATIONS = 2;
export const USER_MESSAGES = {
  tooFewOrganisations: 'A user in a settlement area needs at least two organisation relations',
  severalSettlementAreas: 'Users with several settlement areas cannot be edited on the user page',
  usernameTaken: 'A user with this username already exists',
  unknownArea: 'Unknown area',
  unknownOrganisation: 'Not an organisation of this area',
  duplicateArea: 'An area may be listed once only',
  unknownUser: 'Unknown user',
  disableSelf: 'You cannot disable your own user',
} as const;

/** Country areas are the settlement areas; exchange and administration are not (product.md §1). */
const isSettlementArea = (kind: AreaKind): boolean => (COUNTRY_AREA_NAMES as readonly string[]).includes(kind);

const fieldsOf = (body: UserSave) => ({
  firstName: body.firstName ?? null,
  lastName: body.lastName ?? null,
  email: body.email ?? null,
  enabled: body.enabled,
  attributes: { title: body.attributes.title ?? null, description: body.attributes.description ?? null },
});

async function loadUser(ex: Executor, username: string) {
  const stored = await loadStoredUser(ex, username);
  if (!stored) return undefined;
  const { areas, globalMarketFunctions } = await loadUserAreas(ex, stored.username);
  return { stored, areas, globalMarketFunctions };
}

const toUser = (loaded: NonNullable<Awaited<ReturnType<typeof loadUser>>>, onlyArea?: string): User => ({
  ...loaded.stored,
  areas: loaded.areas
    .filter((a) => !onlyArea || a.areaId === onlyArea)
    .map(({ areaId, areaName, marketFunctions, organisations }) => ({
      areaId,
      areaName,
      marketFunctions,
      organisations,
    })),
  globalMarketFunctions: loaded.globalMarketFunctions,
});

/** Area ids held with at least one function or organisation. */
const heldAreasOf = (areas: readonly StoredUserArea[]) =>
  areas.filter((a) => a.marketFunctions.length > 0 || a.organisations.length > 0).map((a) => a.areaId);

/**
 * Checks the areas of a save: each listed once, known, with organisations of that area, and a
 * settlement area held with functions or organisations has at least two organisation relations.
 * Answers the kind of each listed area.
 */
async function validateAreas(ex: Executor, areas: readonly UserArea[]): Promise<Map<string, AreaKind>> {
  const known = await areaKinds(ex);
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, area] of areas.entries()) {
    const field = `areas.${i}`;
    if (seen.has(area.areaId)) errors.push({ code: 'invalid_input', field, message: USER_MESSAGES.duplicateArea });
    seen.add(area.areaId);
    const kind = known.get(area.areaId);
    if (!kind) {
      errors.push({ code: 'invalid_input', field: `${field}.areaId`, message: USER_MESSAGES.unknownArea });
      continue;
    }
    const found = new Set(await existingOrganisations(ex, area.areaId, area.organisations));
    for (const [j, uuid] of area.organisations.entries()) {
      if (!found.has(uuid)) {
        errors.push({
          code: 'invalid_input',
          field: `${field}.organisations.${j}`,
          message: USER_MESSAGES.unknownOrganisation,
        });
      }
    }
    const holds = area.marketFunctions.length > 0 || area.organisations.length > 0;
    if (holds && isSettlementArea(kind) && new Set(area.organisations).size < MIN_SETTLEMENT_AREA_ORGANISATIONS) {
      errors.push({
        code: 'invalid_input',
        field: `${field}.organisations`,
        message: USER_MESSAGES.tooFewOrganisations,
      });
    }
  }
  if (errors.length > 0) throw ApiError.badRequestMany(errors);
  return known;
}

function failOne(message: string, field?: string): never {
  throw ApiError.badRequestMany([{ code: 'invalid_input', field, message }]);
}

/** GET /domain/users/{username}; a responsible sees the user's current-area part only. */
export async function getUser(ex: Executor, actor: UserActor, username: string): Promise<User> {
  const loaded = await loadUser(ex, username);
  if (!loaded) throw ApiError.notFound(USER_MESSAGES.unknownUser);
  assertMayRead(actor, heldAreasOf(loaded.areas), loaded.globalMarketFunctions.length > 0);
  return toUser(loaded, isUserAdmin(actor) ? undefined : actor.tenant);
}

/**
 * The password's scrypt hash in app_user, which the embedded provider's login verifies. With an
 * external directory (Keycloak) the password lives there only: a hash nobody verifies is a copy of
 * a secret kept for nothing.
 */
async function storePassword(
  tx: Executor,
  directory: UserDirectory | undefined,
  username: string,
  password: string,
): Promise<void> {
  if (!directory) await setPasswordHash(tx, username, await hashPassword(password));
}

/**
 * The user as stored in this transaction, told to the external directory (Keycloak) with the
 * password when one was given. Called last in the transaction: when the directory refuses, the
 * transaction rolls back and app_user stays as it was.
 */
async function syncDirectory(
  tx: Executor,
  directory: UserDirectory | undefined,
  username: string,
  password: string | undefined,
): Promise<void> {
  if (!directory) return;
  const loaded = await loadUser(tx, username);
  if (!loaded) return;
  await directory.upsert(toUser(loaded));
  // Chosen by the administrator and handed over in person: not temporary (a reset one is).
  if (password) await directory.setPassword(loaded.stored.username, password, false);
}

/**
 * POST /domain/users/save: a new user, its functions and organisations per area, and an initial
 * password when one is given (else none until reset). With a directory (Keycloak) the user is
 * created there too, in the same all-or-nothing step.
 */
export async function createUser(
  db: TxExecutor,
  actor: UserActor,
  body: UserSave,
  directory?: UserDirectory,
): Promise<User> {
  assertMayWrite(actor, body.areas);
  await db.transaction(async (tx) => {
    if (await loadStoredUser(tx, body.username)) {
      throw ApiError.badRequest('uniqueproperties', USER_MESSAGES.usernameTaken);
    }
    await validateAreas(tx, body.areas);
    await insertUser(tx, body.username, fieldsOf(body));
    for (const area of body.areas) {
      await replaceUserArea(tx, body.username, area.areaId, area.marketFunctions, area.organisations);
    }
    if (body.password) await storePassword(tx, directory, body.username, body.password);
    await syncDirectory(tx, directory, body.username, body.password);
  });
  return getUser(db, actor, body.username);
}

/**
 * POST /domain/users/edit: names, attributes, enabled flag and the listed areas.
 * product.md §5: users with several settlement areas cannot be edited on the user page (the area's
 * page, which the settlement-area responsible has); the erex-administrator edits them on the
 * across-areas pages (product.md §2, §6), so the refusal applies to everyone else. For them it is a
 * second wall today (assertMayWrite already keeps a responsible to users of its own area alone),
 * kept so that widening the responsible's rights cannot bypass the rule.
 */
export async function editUser(
  db: TxExecutor,
  actor: UserActor,
  body: UserSave,
  directory?: UserDirectory,
): Promise<User> {
  const username = await db.transaction(async (tx) => {
    const loaded = await loadUser(tx, body.username);
    if (!loaded) throw ApiError.notFound(USER_MESSAGES.unknownUser);
    // Who may comes first: a responsible learns nothing about users outside its area.
    assertMayWrite(actor, body.areas, {
      heldAreas: heldAreasOf(loaded.areas),
      hasGlobal: loaded.globalMarketFunctions.length > 0,
    });
    const kinds = await validateAreas(tx, body.areas);
    const settlementAreas = (areas: readonly { areaId: string; held: boolean }[]) =>
      areas.filter((a) => a.held && isSettlementArea(kinds.get(a.areaId) ?? 'exchange')).length;
    const before = loaded.areas.map((a) => ({
      areaId: a.areaId,
      held: a.marketFunctions.length > 0 || a.organisations.length > 0,
    }));
    const acrossAreas = isUserAdmin(actor);
    if (!acrossAreas && settlementAreas(before) > 1) failOne(USER_MESSAGES.severalSettlementAreas);
    const given = new Set(body.areas.map((a) => a.areaId));
    const after = [
      ...before.filter((a) => !given.has(a.areaId)),
      ...body.areas.map((a) => ({
        areaId: a.areaId,
        held: a.marketFunctions.length > 0 || a.organisations.length > 0,
      })),
    ];
    if (!acrossAreas && settlementAreas(after) > 1) failOne(USER_MESSAGES.severalSettlementAreas, 'areas');
    if (!body.enabled && loaded.stored.username.toLowerCase() === actor.username.toLowerCase()) {
      failOne(USER_MESSAGES.disableSelf, 'enabled');
    }
    await updateUser(tx, loaded.stored.username, fieldsOf(body));
    for (const area of body.areas) {
      await replaceUserArea(tx, loaded.stored.username, area.areaId, area.marketFunctions, area.organisations);
    }
    if (body.password) await storePassword(tx, directory, loaded.stored.username, body.password);
    await syncDirectory(tx, directory, loaded.stored.username, body.password);
    return loaded.stored.username;
  });
  return getUser(db, actor, username);
}

/** POST /domain/users/edit-all: enable or disable many users, all or nothing. */
export async function setEnabledForAll(
  db: TxExecutor,
  actor: UserActor,
  body: { usernames: readonly string[]; enabled: boolean },
  directory?: UserDirectory,
): Promise<{ usernames: string[]; enabled: boolean }> {
  const wanted = [...new Set(body.usernames.map((u) => u.toLowerCase()))];
  if (!body.enabled && wanted.includes(actor.username.toLowerCase())) failOne(USER_MESSAGES.disableSelf, 'usernames');
  return db.transaction(async (tx) => {
    const updated = await setUsersEnabled(tx, wanted, body.enabled);
    const found = new Set(updated.map((u) => u.toLowerCase()));
    const missing = body.usernames.flatMap((u, i) =>
      found.has(u.toLowerCase())
        ? []
        : [{ code: 'invalid_input', field: `usernames.${i}`, message: USER_MESSAGES.unknownUser }],
    );
    // Throwing rolls the transaction back: either every named user changes or none.
    if (missing.length > 0) throw ApiError.badRequestMany(missing);
    await directory?.setEnabled(updated, body.enabled);
    return { usernames: updated, enabled: body.enabled };
  });
}

/** Characters of a generated password: 18 random bytes as base64url (144 bits). */
const NEW_PASSWORD_BYTES = 18;

/**
 * POST /domain/users/resetPassword: a new random password, stored as a scrypt hash (what the
 * embedded provider's login verifies) and answered once; it is not kept anywhere else.
 */
export async function resetPassword(
  db: TxExecutor,
  username: string,
  directory?: UserDirectory,
): Promise<{ username: string; password: string }> {
  return db.transaction(async (tx) => {
    const stored = await loadStoredUser(tx, username);
    if (!stored) throw ApiError.notFound(USER_MESSAGES.unknownUser);
    const password = randomBytes(NEW_PASSWORD_BYTES).toString('base64url');
    await storePassword(tx, directory, stored.username, password);
    // In Keycloak the generated password is temporary: the person chooses their own at sign-in.
    await directory?.setPassword(stored.username, password, true);
    return { username: stored.username, password };
  });
}

const pageAnswer = (
  result: Awaited<ReturnType<typeof pageUsers>>,
  paging: { page: number; size: number },
): UserPage => ({
  content: result.users,
  totalElements: result.total,
  totalPages: Math.ceil(result.total / paging.size),
  number: paging.page,
  size: paging.size,
});

/** POST /domain/users/all-in-tenant: users with a function in the current area (enabled or not). */
export async function usersInTenant(
  ex: Executor,
  tenant: string,
  filter: { searchString: string; active: boolean; inactive: boolean },
  paging: PageQuery,
): Promise<UserPage> {
  const result = await pageUsers(ex, { ...paging, ...filter, tenant });
  return pageAnswer(result, paging);
}

/** POST /domain/users/all-across-tenants: every user, by enabled flag and a name search. */
export async function usersAcrossTenants(
  ex: Executor,
  filter: { active: boolean; inactive: boolean; searchString: string },
  paging: PageQuery,
): Promise<UserPage> {
  const result = await pageUsers(ex, { ...paging, ...filter, tenant: null });
  return pageAnswer(result, paging);
}
