import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { organisationCalls, userAdminCalls, type UserSave } from '@railwatt/contracts';
import { api } from '../../../lib/api';

/**
 * Users of the Administration section (calls.md §7 "Users", contracts calls/users.ts). Lists of the
 * current area use all-in-tenant, the erex-administrator's across-areas pages all-across-tenants.
 */
export const userKeys = {
  all: ['administration', 'users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (scope: UserListScope, filter: UserListFilter, page: number, size: number) =>
    [...userKeys.lists(), scope, { filter, page, size }] as const,
  user: (username: string) => [...userKeys.all, 'user', username.toLowerCase()] as const,
  areaOrganisations: (areaId: string) => [...userKeys.all, 'area-organisations', areaId] as const,
};

export type UserListScope = 'tenant' | 'across';

export interface UserListFilter {
  searchString: string;
  active: boolean;
  inactive: boolean;
}

/** A page of users (page 1-based in the UI, zero-based on the wire). */
export const userListQuery = (scope: UserListScope, filter: UserListFilter, page: number, size: number) =>
  queryOptions({
    queryKey: userKeys.list(scope, filter, page, size),
    queryFn: ({ signal }) =>
      api.call(scope === 'across' ? userAdminCalls.allAcrossTenants : userAdminCalls.allInTenant, {
        query: { page: page - 1, size },
        body: filter,
        signal,
        key: `users-${scope}`,
      }),
    placeholderData: keepPreviousData,
  });

export const userQuery = (username: string) =>
  queryOptions({
    queryKey: userKeys.user(username),
    queryFn: ({ signal }) => api.call(userAdminCalls.get, { params: { username }, signal }),
  });

/** The active organisations of an area the user works in (relations of a user there). */
export const areaOrganisationsQuery = (areaId: string) =>
  queryOptions({
    queryKey: userKeys.areaOrganisations(areaId),
    queryFn: ({ signal }) => api.call(organisationCalls.ofTenant, { params: { tenantId: areaId }, signal }),
    staleTime: 60_000,
  });

/** POST /domain/users/save (new) or /edit (existing). */
export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, editing }: { body: UserSave; editing: boolean }) =>
      api.call(editing ? userAdminCalls.edit : userAdminCalls.save, { body }),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: userKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: userKeys.user(saved.username) });
    },
  });
}

/** POST /domain/users/edit-all: enable or disable the selected users. */
export function useSetUsersEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { usernames: string[]; enabled: boolean }) => api.call(userAdminCalls.editAll, { body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** POST /domain/users/resetPassword: the new password, answered once. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (username: string) => api.call(userAdminCalls.resetPassword, { body: { username } }),
  });
}
