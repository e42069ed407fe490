import { z } from 'zod';
import {
  userEditAllResultSchema,
  userEditAllSchema,
  userPageSchema,
  userResetPasswordResultSchema,
  userResetPasswordSchema,
  userSaveSchema,
  userSchema,
  usernameSchema,
  usersAcrossTenantsFilterSchema,
  usersInTenantFilterSchema,
} from '../domain/user.js';
import { pageQuerySchema } from '../paging.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/** calls.md §7 "Users", under /domain/users. */
export const userAdminCalls = {
  save: defineCall({
    method: 'POST',
    path: '/domain/users/save',
    access: POLICIES.userAreaAdmin,
    summary: 'Create a user (with an initial password, or none until reset)',
    body: userSaveSchema,
    response: userSchema,
  }),
  edit: defineCall({
    method: 'POST',
    path: '/domain/users/edit',
    access: POLICIES.userAreaAdmin,
    summary: 'Change a user; the listed areas are replaced, others kept',
    body: userSaveSchema,
    response: userSchema,
  }),
  editAll: defineCall({
    method: 'POST',
    path: '/domain/users/edit-all',
    access: POLICIES.userAdmin,
    summary: 'Enable or disable many users',
    body: userEditAllSchema,
    response: userEditAllResultSchema,
  }),
  resetPassword: defineCall({
    method: 'POST',
    path: '/domain/users/resetPassword',
    access: POLICIES.userAdmin,
    summary: 'A new random password, answered once',
    body: userResetPasswordSchema,
    response: userResetPasswordResultSchema,
  }),
  allInTenant: defineCall({
    method: 'POST',
    path: '/domain/users/all-in-tenant',
    access: POLICIES.userAreaAdmin,
    summary: 'Users with a function in the current area (page zero-based, size default 20)',
    query: pageQuerySchema,
    body: usersInTenantFilterSchema.optional(),
    response: userPageSchema,
  }),
  allAcrossTenants: defineCall({
    method: 'POST',
    path: '/domain/users/all-across-tenants',
    access: POLICIES.userAdmin,
    summary: 'Every user, by enabled flag and name search',
    query: pageQuerySchema,
    body: usersAcrossTenantsFilterSchema.optional(),
    response: userPageSchema,
  }),
  get: defineCall({
    method: 'GET',
    path: '/domain/users/{username}',
    access: POLICIES.userAreaAdmin,
    params: z.object({ username: usernameSchema }),
    response: userSchema,
  }),
};
