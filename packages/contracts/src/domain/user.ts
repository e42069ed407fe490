import { z } from 'zod';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from '../limits.js';
import { pageOf } from '../paging.js';
import { roleSchema } from '../roles.js';

/**
 * Users (product.md §3 "User", calls.md §7 "Users"). A user is stored once (app_user); what it may
 * do is per area: its market functions there and the organisations it belongs to there. Title and
 * description travel in `attributes` and the active flag as `enabled`, as the spec writes them.
 */
export const USERNAME_PATTERN = /^[A-Za-z0-9._@-]+$/;

export const usernameSchema = text(TEXT_LIMITS.identifier)
  .trim()
  .min(1, 'The username field is required')
  .max(100, 'The username may be at most 100 characters')
  .regex(USERNAME_PATTERN, 'The username may hold letters, digits and . _ @ - only');

export const userAttributesSchema = z.object({
  title: text(TEXT_LIMITS.name).trim().nullable().optional(),
  description: text(TEXT_LIMITS.comment).trim().nullable().optional(),
});
export type UserAttributes = z.infer<typeof userAttributesSchema>;

/** What the user holds in one area: its market functions and its organisation relations there. */
export const userAreaSchema = z.object({
  areaId: z.uuid(),
  /** Filled in answers; ignored on save. */
  areaName: text(TEXT_LIMITS.name).optional(),
  marketFunctions: list(roleSchema, LIST_LIMITS.small),
  /** Organisation entity uuids of this area. */
  organisations: list(z.uuid(), LIST_LIMITS.refs),
});
export type UserArea = z.infer<typeof userAreaSchema>;

export const userSchema = z.object({
  username: text(TEXT_LIMITS.identifier),
  firstName: text(TEXT_LIMITS.name).nullable(),
  lastName: text(TEXT_LIMITS.name).nullable(),
  email: text(TEXT_LIMITS.email).nullable(),
  enabled: z.boolean(),
  attributes: userAttributesSchema,
  areas: list(userAreaSchema, LIST_LIMITS.small),
  /**
   * Functions held in every area (area-less rows, e.g. from an identity import). Shown, never set
   * through these calls.
   */
  globalMarketFunctions: list(roleSchema, LIST_LIMITS.small),
});
export type User = z.infer<typeof userSchema>;

/** Shortest password an administrator may set. */
export const USER_PASSWORD_MIN_LENGTH = 8;

const nameField = text(TEXT_LIMITS.identifier).trim().nullable().optional();

/**
 * POST /domain/users/save (create) and /edit. `areas` lists the areas the call sets: each one given
 * replaces the user's functions and organisations in that area (empty lists take the user out of
 * it); areas not given keep what they hold. A new user without `password` has none until one is reset.
 */
export const userSaveSchema = z.object({
  username: usernameSchema,
  firstName: nameField,
  lastName: nameField,
  email: z.email().max(TEXT_LIMITS.email).nullable().optional(),
  enabled: z.boolean().default(true),
  attributes: userAttributesSchema.default({}),
  areas: list(userAreaSchema, LIST_LIMITS.small).default([]),
  /**
   * An initial (save) or new (edit) password chosen by the administrator; absent keeps the stored
   * one. Stored only as a scrypt hash, never answered.
   */
  password: text(TEXT_LIMITS.secret)
    .min(USER_PASSWORD_MIN_LENGTH, `The password needs at least ${USER_PASSWORD_MIN_LENGTH} characters`)
    .optional(),
});
export type UserSave = z.infer<typeof userSaveSchema>;

/** POST /domain/users/edit-all: enable or disable many users at once. */
export const userEditAllSchema = z.object({
  usernames: list(usernameSchema, LIST_LIMITS.selection).min(1),
  enabled: z.boolean(),
});
export const userEditAllResultSchema = z.object({
  usernames: list(text(TEXT_LIMITS.identifier), LIST_LIMITS.selection),
  enabled: z.boolean(),
});

/** POST /domain/users/resetPassword */
export const userResetPasswordSchema = z.object({ username: usernameSchema });
/** The new password, shown once: it is stored only as a scrypt hash. */
export const userResetPasswordResultSchema = z.object({
  username: text(TEXT_LIMITS.identifier),
  password: text(TEXT_LIMITS.secret),
});

/** One row of the user lists. */
export const userSummarySchema = z.object({
  username: text(TEXT_LIMITS.identifier),
  firstName: text(TEXT_LIMITS.name).nullable(),
  lastName: text(TEXT_LIMITS.name).nullable(),
  email: text(TEXT_LIMITS.email).nullable(),
  enabled: z.boolean(),
  attributes: userAttributesSchema,
  /** Roles in the current area (all-in-tenant) or in any area (all-across-tenants). */
  marketFunctions: list(roleSchema, LIST_LIMITS.small),
});
export type UserSummary = z.infer<typeof userSummarySchema>;
export const userPageSchema = pageOf(userSummarySchema);
export type UserPage = z.infer<typeof userPageSchema>;

/**
 * POST /domain/users/all-in-tenant body (paging in the query string, as other lists). `active` and
 * `inactive` as in all-across-tenants; both default on here (the area's whole list).
 */
export const usersInTenantFilterSchema = z.object({
  searchString: text(TEXT_LIMITS.search).trim().default(''),
  active: z.boolean().default(true),
  inactive: z.boolean().default(true),
});

/**
 * POST /domain/users/all-across-tenants body: `active` lists enabled users, `inactive` disabled
 * ones (both may be on); searchString matches username, first or last name (case-insensitive contains).
 */
export const usersAcrossTenantsFilterSchema = z.object({
  active: z.boolean().default(true),
  inactive: z.boolean().default(false),
  searchString: text(TEXT_LIMITS.search).trim().default(''),
});
