import { z } from 'zod';
import {
  COUNTRY_AREA_NAMES,
  roleSchema,
  USER_PASSWORD_MIN_LENGTH,
  USERNAME_PATTERN,
  type AreaKind,
  type User,
  type UserSave,
} from '@railwatt/contracts';

/**
 * The user registration form (product.md §3 "User", §5). Messages are i18n keys under
 * `administration.` (the page translates them); the rules are the server's (modules/user/service.ts),
 * checked here first so the person sees them beside the field.
 */
export const MIN_SETTLEMENT_AREA_ORGANISATIONS = 2;

export const isSettlementAreaKind = (kind: AreaKind | undefined): boolean =>
  kind !== undefined && (COUNTRY_AREA_NAMES as readonly string[]).includes(kind);

const areaSchema = z.object({
  areaId: z.string().min(1),
  marketFunctions: z.array(roleSchema),
  organisations: z.array(z.string()),
});

export type UserFormArea = z.infer<typeof areaSchema>;

export const userFormSchema = (kindOf: (areaId: string) => AreaKind | undefined) =>
  z
    .object({
      username: z
        .string()
        .trim()
        .min(1, 'users.validation.username_required')
        .max(100, 'users.validation.username_length')
        .regex(USERNAME_PATTERN, 'users.validation.username_format'),
      firstName: z.string().max(100),
      lastName: z.string().max(100),
      email: z.union([z.literal(''), z.email('users.validation.email')]),
      title: z.string().max(200),
      description: z.string().max(4000),
      enabled: z.boolean(),
      areas: z.array(areaSchema),
      setPassword: z.boolean(),
      password: z.string(),
    })
    .superRefine((values, ctx) => {
      values.areas.forEach((area, i) => {
        const holds = area.marketFunctions.length > 0 || area.organisations.length > 0;
        // product.md §5: saving a settlement-area user needs at least two organisation relations.
        if (
          holds &&
          isSettlementAreaKind(kindOf(area.areaId)) &&
          new Set(area.organisations).size < MIN_SETTLEMENT_AREA_ORGANISATIONS
        ) {
          ctx.addIssue({
            code: 'custom',
            path: ['areas', i, 'organisations'],
            message: 'users.validation.two_organisations',
          });
        }
      });
      if (values.setPassword && values.password.length < USER_PASSWORD_MIN_LENGTH) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'users.validation.password_length' });
      }
    });

export type UserFormValues = z.infer<ReturnType<typeof userFormSchema>>;

export const emptyUserForm = (areaIds: readonly string[]): UserFormValues => ({
  username: '',
  firstName: '',
  lastName: '',
  email: '',
  title: '',
  description: '',
  enabled: true,
  areas: areaIds.map((areaId) => ({ areaId, marketFunctions: [], organisations: [] })),
  setPassword: true,
  password: '',
});

/** A stored user as form values; `onlyArea` keeps the current area's part (the user page). */
export function toUserForm(user: User, onlyArea?: string): UserFormValues {
  const areas = user.areas
    .filter((a) => !onlyArea || a.areaId === onlyArea)
    .map((a) => ({ areaId: a.areaId, marketFunctions: a.marketFunctions, organisations: a.organisations }));
  if (onlyArea && areas.length === 0) areas.push({ areaId: onlyArea, marketFunctions: [], organisations: [] });
  return {
    username: user.username,
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    email: user.email ?? '',
    title: user.attributes.title ?? '',
    description: user.attributes.description ?? '',
    enabled: user.enabled,
    areas,
    setPassword: false,
    password: '',
  };
}

const orNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/**
 * The body of /domain/users/save or /edit: active as `enabled`, title and description as
 * `attributes` (product.md §3). `removedAreas` are sent with empty lists, which takes the user out.
 */
export function toUserSave(values: UserFormValues, removedAreas: readonly string[] = []): UserSave {
  return {
    username: values.username.trim(),
    firstName: orNull(values.firstName),
    lastName: orNull(values.lastName),
    email: orNull(values.email),
    enabled: values.enabled,
    attributes: { title: orNull(values.title), description: orNull(values.description) },
    areas: [
      ...values.areas.map((a) => ({
        areaId: a.areaId,
        marketFunctions: [...new Set(a.marketFunctions)],
        organisations: [...new Set(a.organisations)],
      })),
      ...removedAreas.map((areaId) => ({ areaId, marketFunctions: [], organisations: [] })),
    ],
    ...(values.setPassword && values.password ? { password: values.password } : {}),
  };
}

/** product.md §5: a user who holds several settlement areas is edited across areas, not on the user page. */
export function settlementAreaCount(user: User, kindOf: (areaId: string) => AreaKind | undefined): number {
  return user.areas.filter(
    (a) => (a.marketFunctions.length > 0 || a.organisations.length > 0) && isSettlementAreaKind(kindOf(a.areaId)),
  ).length;
}
