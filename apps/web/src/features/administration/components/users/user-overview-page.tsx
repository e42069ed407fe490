import { useMemo, useState } from 'react';
import { Alert, Anchor, Badge, Button, Checkbox, Code, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Link, useSearchParams } from 'react-router';
import type { UserSummary } from '@railwatt/contracts';
import { DataTable } from '../../../../components/ui/data-table';
import type { ScreenProps } from '../../../../lib/routes';
import { useMarketStore } from '../../../../lib/stores/market-store';
import { useModalStore } from '../../../../lib/stores/modal-store';
import {
  userListQuery,
  useResetPassword,
  useSetUsersEnabled,
  type UserListFilter,
  type UserListScope,
} from '../../api/users';
import { useAdminT } from '../../hooks/use-admin-t';
import { AdminPageTitle } from '../admin-page-title';
import { USER_PATHS } from './user-registration-page';
import { ApiErrorText, useErrorModal } from '../../../../components/ui/api-error';
import { SearchForm } from '../search-form';

const PAGE_SIZES = [10, 50, 100];
const DEFAULT_SIZE = 10;

/** /administration/user/overview: the users of the selected area. */
export function UserOverviewPage(props: Partial<ScreenProps>) {
  return <UserOverview screen={props} scope="tenant" />;
}

/** /administration/user/viewacrosssettlementareas (erex-administrator): every user. */
export function UserViewAcrossPage(props: Partial<ScreenProps>) {
  return <UserOverview screen={props} scope="across" />;
}

/** Filters, page and page size live in the URL (STYLE.md §5). */
function useUserSearch() {
  const [params, setParams] = useSearchParams();
  const flag = (name: string, fallback: boolean) => {
    const v = params.get(name);
    return v === null ? fallback : v === 'true';
  };
  const positive = (name: string, fallback: number) => {
    const n = Number(params.get(name));
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  const size = positive('size', DEFAULT_SIZE);
  const search = {
    filter: {
      searchString: params.get('search') ?? '',
      active: flag('active', true),
      inactive: flag('inactive', false),
    } satisfies UserListFilter,
    page: positive('page', 1),
    size: PAGE_SIZES.includes(size) ? size : DEFAULT_SIZE,
  };
  const update = (next: Partial<UserListFilter & { page: number; size: number }>) => {
    const merged = { ...search.filter, page: search.page, size: search.size, ...next };
    const out = new URLSearchParams();
    if (merged.searchString) out.set('search', merged.searchString);
    if (!merged.active) out.set('active', 'false');
    if (merged.inactive) out.set('inactive', 'true');
    if (merged.page !== 1) out.set('page', String(merged.page));
    if (merged.size !== DEFAULT_SIZE) out.set('size', String(merged.size));
    setParams(out);
  };
  return { search, update };
}

function UserOverview({ screen, scope }: { screen: Partial<ScreenProps>; scope: UserListScope }) {
  const { t } = useAdminT();
  const openModal = useModalStore((s) => s.open);
  const isAdministrator = useMarketStore((s) => s.rolesInArea.includes('erex-administrator'));
  const { search, update } = useUserSearch();
  const list = useQuery(userListQuery(scope, search.filter, search.page, search.size));
  const [selected, setSelected] = useState<string[]>([]);
  const [passwords, setPasswords] = useState<{ username: string; password: string }[]>([]);
  const setEnabled = useSetUsersEnabled();
  const reset = useResetPassword();
  const editPath = scope === 'across' ? USER_PATHS.registerAcross : USER_PATHS.registration;

  const showError = useErrorModal();

  const requireSelection = (): boolean => {
    if (selected.length > 0) return true;
    openModal({ type: 'error', message: t('users.overview.none_selected') });
    return false;
  };

  const onEnable = async (enabled: boolean) => {
    if (!requireSelection()) return;
    try {
      await setEnabled.mutateAsync({ usernames: selected, enabled });
      setSelected([]);
      openModal({
        type: 'confirmation',
        message: t(enabled ? 'users.overview.enabled_done' : 'users.overview.disabled_done'),
      });
    } catch (error) {
      showError(error);
    }
  };

  const onReset = async () => {
    if (!requireSelection()) return;
    const answers: { username: string; password: string }[] = [];
    try {
      for (const username of selected) answers.push(await reset.mutateAsync(username));
    } catch (error) {
      showError(error);
    }
    setPasswords(answers);
  };

  const columns = useMemo<ColumnDef<UserSummary>[]>(
    () => [
      { accessorKey: 'username', header: t('users.field.username') },
      { id: 'firstName', header: t('users.field.first_name'), cell: ({ row }) => row.original.firstName ?? '' },
      { id: 'lastName', header: t('users.field.last_name'), cell: ({ row }) => row.original.lastName ?? '' },
      { id: 'email', header: t('users.field.email'), cell: ({ row }) => row.original.email ?? '' },
      {
        id: 'title',
        header: t('users.field.title'),
        cell: ({ row }) => row.original.attributes.title ?? '',
      },
      {
        id: 'marketFunctions',
        header: t('users.field.market_functions'),
        cell: ({ row }) => row.original.marketFunctions.map((r) => t(`roles.${r}`)).join(', '),
      },
      {
        id: 'enabled',
        header: t('users.field.active'),
        cell: ({ row }) => (
          <Badge variant="light" color={row.original.enabled ? 'green' : 'gray'} data-testid="user-enabled">
            {t(row.original.enabled ? 'users.overview.active' : 'users.overview.inactive')}
          </Badge>
        ),
      },
      {
        id: 'links',
        header: () => null,
        cell: ({ row }) => (
          <Anchor component={Link} to={`${editPath}?username=${encodeURIComponent(row.original.username)}`} size="sm">
            {t('users.overview.edit')}
          </Anchor>
        ),
      },
    ],
    [t, editPath],
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <AdminPageTitle
          screen={screen}
          fallbackKey={scope === 'across' ? 'users.overview.title_across' : 'users.overview.title'}
        />
        <Button component={Link} to={scope === 'across' ? USER_PATHS.registerAcross : USER_PATHS.registration}>
          {t('users.overview.register')}
        </Button>
      </Group>

      <SearchForm
        initial={search.filter.searchString}
        label={t('users.overview.search')}
        buttonLabel={t('users.overview.search_button')}
        onSearch={(searchString) => {
          setSelected([]);
          update({ searchString, page: 1 });
        }}
      >
        <Checkbox
          label={t('users.overview.active')}
          checked={search.filter.active}
          onChange={(e) => {
            setSelected([]);
            update({ active: e.currentTarget.checked, page: 1 });
          }}
        />
        <Checkbox
          label={t('users.overview.inactive')}
          checked={search.filter.inactive}
          onChange={(e) => {
            setSelected([]);
            update({ inactive: e.currentTarget.checked, page: 1 });
          }}
        />
      </SearchForm>

      <ApiErrorText error={list.isError ? list.error : null} fallback={t('users.overview.load_failed')} />

      {passwords.length > 0 && (
        <Alert color="blue" data-testid="reset-passwords" withCloseButton onClose={() => setPasswords([])}>
          <Text size="sm">{t('users.registration.new_password_once')}</Text>
          {passwords.map((p) => (
            <Text key={p.username} size="sm">
              {p.username}: <Code>{p.password}</Code>
            </Text>
          ))}
        </Alert>
      )}

      <DataTable
        data={list.data?.content ?? []}
        columns={columns}
        getRowId={(row) => row.username}
        emptyMessage={t('users.overview.empty')}
        loading={list.isFetching}
        data-testid="user-table"
        rowTestId="user-row"
        selection={isAdministrator ? { selected, onChange: setSelected } : undefined}
        pagination={{
          page: search.page,
          size: search.size,
          totalPages: Math.max(1, list.data?.totalPages ?? 1),
          totalElements: list.data?.totalElements,
          onChange: (next) => update(next),
        }}
        toolbar={
          isAdministrator && (
            <>
              <Button size="xs" variant="outline" onClick={() => void onEnable(true)} loading={setEnabled.isPending}>
                {t('users.overview.enable')}
              </Button>
              <Button size="xs" variant="outline" onClick={() => void onEnable(false)} loading={setEnabled.isPending}>
                {t('users.overview.disable')}
              </Button>
              <Button size="xs" variant="outline" onClick={() => void onReset()} loading={reset.isPending}>
                {t('users.overview.reset_password')}
              </Button>
            </>
          )
        }
      />
    </Stack>
  );
}
