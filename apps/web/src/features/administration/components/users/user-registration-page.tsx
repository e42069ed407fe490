import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Checkbox,
  Code,
  Fieldset,
  Group,
  MultiSelect,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useFieldArray, useForm, type Control, type FieldError } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ROLES, type AreaKind, type Role, type User } from '@railwatt/contracts';
import { apiErrorMessages } from '../../../../lib/errors';
import type { ScreenProps } from '../../../../lib/routes';
import { useMarketStore } from '../../../../lib/stores/market-store';
import { useModalStore } from '../../../../lib/stores/modal-store';
import { areaOrganisationsQuery, userQuery, useResetPassword, useSaveUser } from '../../api/users';
import { useAdminT } from '../../hooks/use-admin-t';
import { AdminPageTitle } from '../admin-page-title';
import {
  emptyUserForm,
  settlementAreaCount,
  toUserForm,
  toUserSave,
  userFormSchema,
  type UserFormValues,
} from './user-form-schema';
import { ServerErrors } from '../../../../components/ui/api-error';

export const USER_PATHS = {
  registration: '/administration/user/registration',
  overview: '/administration/user/overview',
  registerAcross: '/administration/user/registeracrosssettlementareas',
  viewAcross: '/administration/user/viewacrosssettlementareas',
} as const;

const byLabel = (a: { label: string }, b: { label: string }) =>
  a.label.localeCompare(b.label, undefined, { numeric: true, sensitivity: 'base' });

/** /administration/user/registration (?username= to edit): a user of the selected area. */
export function UserRegistrationPage(props: Partial<ScreenProps>) {
  return <UserRegistration screen={props} across={false} />;
}

/** /administration/user/registeracrosssettlementareas (erex-administrator): functions and relations per area. */
export function UserRegisterAcrossPage(props: Partial<ScreenProps>) {
  return <UserRegistration screen={props} across />;
}

interface AreaInfo {
  uuid: string;
  name: string;
  kind: AreaKind;
}

/** The areas a user may be given (the signed-in user's areas, without the Master Data pseudo-area). */
function useAreas() {
  const areas = useMarketStore((s) => s.areas);
  const current = useMarketStore((s) => s.area);
  return useMemo(() => {
    const list: AreaInfo[] = areas
      .filter((a) => a.kind !== 'masterdata')
      .map((a) => ({ uuid: a.uuid, name: a.name, kind: a.kind }));
    if (current && current.kind !== 'masterdata' && !list.some((a) => a.uuid === current.uuid)) {
      list.push({ uuid: current.uuid, name: current.name, kind: current.kind });
    }
    const kindOf = (id: string) => list.find((a) => a.uuid === id)?.kind;
    const nameOf = (id: string) => list.find((a) => a.uuid === id)?.name ?? id;
    return { list, kindOf, nameOf, currentId: current && current.kind !== 'masterdata' ? current.uuid : null };
  }, [areas, current]);
}

function UserRegistration({ screen, across }: { screen: Partial<ScreenProps>; across: boolean }) {
  const [params] = useSearchParams();
  const username = params.get('username');
  const { t, tRoot } = useAdminT();
  const { currentId, kindOf } = useAreas();
  const user = useQuery({ ...userQuery(username ?? ''), enabled: Boolean(username) });

  if (!currentId) return <Text>{t('users.registration.no_area')}</Text>;
  if (username) {
    if (user.isPending) return <Text>{t('users.registration.loading')}</Text>;
    if (user.isError) {
      return (
        <Stack>
          <AdminPageTitle screen={screen} fallbackKey="users.registration.title" />
          <Alert color="red">
            {apiErrorMessages(user.error, tRoot).join(' ') || t('users.registration.load_failed')}
          </Alert>
        </Stack>
      );
    }
    // product.md §5: users with several settlement areas cannot be edited on the user page.
    const blocked = !across && settlementAreaCount(user.data, kindOf) > 1;
    return (
      <UserForm
        key={username}
        screen={screen}
        across={across}
        stored={user.data}
        blocked={blocked}
        initial={toUserForm(user.data, across ? undefined : currentId)}
      />
    );
  }
  return <UserForm screen={screen} across={across} initial={emptyUserForm([currentId])} blocked={false} />;
}

interface UserFormProps {
  screen: Partial<ScreenProps>;
  across: boolean;
  initial: UserFormValues;
  stored?: User;
  blocked: boolean;
}

function UserForm({ screen, across, initial, stored, blocked }: UserFormProps) {
  const { t, tRoot } = useAdminT();
  const navigate = useNavigate();
  const openModal = useModalStore((s) => s.open);
  const rolesInArea = useMarketStore((s) => s.rolesInArea);
  const isAdministrator = rolesInArea.includes('erex-administrator');
  const areas = useAreas();
  const save = useSaveUser();
  const reset = useResetPassword();
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const [removed, setRemoved] = useState<string[]>([]);
  const [newPassword, setNewPassword] = useState<string | null>(null);
  const [areaToAdd, setAreaToAdd] = useState<string | null>(null);
  const editing = Boolean(stored);

  const schema = useMemo(() => userFormSchema(areas.kindOf), [areas.kindOf]);
  const form = useForm<UserFormValues>({ resolver: zodResolver(schema), defaultValues: initial, mode: 'onTouched' });
  const { register, control, formState, watch } = form;
  const areaFields = useFieldArray({ control, name: 'areas' });
  const setPassword = watch('setPassword');
  const usedAreas = watch('areas').map((a) => a.areaId);

  const errorText = (error: FieldError | undefined): string | undefined =>
    error?.message ? t(error.message, { defaultValue: error.message }) : undefined;

  // Only an administrator hands out the administrator function (the server refuses it otherwise).
  const roleOptions = ROLES.filter((r) => isAdministrator || r !== 'erex-administrator')
    .map((role) => ({ value: role, label: t(`roles.${role}`) }))
    .sort(byLabel);

  const overviewPath = across ? USER_PATHS.viewAcross : USER_PATHS.overview;

  const onSubmit = form.handleSubmit(async (values) => {
    setServerErrors([]);
    try {
      await save.mutateAsync({ body: toUserSave(values, removed), editing });
      openModal({ type: 'confirmation', message: t('users.registration.saved'), redirectTo: overviewPath });
      void navigate(overviewPath);
    } catch (error) {
      setServerErrors(apiErrorMessages(error, tRoot));
    }
  });

  const onReset = async () => {
    if (!stored) return;
    setServerErrors([]);
    try {
      setNewPassword((await reset.mutateAsync(stored.username)).password);
    } catch (error) {
      setServerErrors(apiErrorMessages(error, tRoot));
    }
  };

  const addableAreas = areas.list
    .filter((a) => !usedAreas.includes(a.uuid))
    .map((a) => ({ value: a.uuid, label: a.name }))
    .sort(byLabel);

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="md" maw={900}>
        <AdminPageTitle
          screen={screen}
          fallbackKey={across ? 'users.registration.title_across' : 'users.registration.title'}
        />
        {blocked && (
          <Alert color="yellow" data-testid="several-settlement-areas">
            <Stack gap="xs">
              <Text size="sm">{t('users.registration.several_settlement_areas')}</Text>
              {isAdministrator && stored && (
                <Anchor
                  component={Link}
                  to={`${USER_PATHS.registerAcross}?username=${encodeURIComponent(stored.username)}`}
                  size="sm"
                >
                  {t('users.registration.edit_across')}
                </Anchor>
              )}
            </Stack>
          </Alert>
        )}
        <ServerErrors messages={serverErrors} testId="user-save-errors" dense />

        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('users.field.username')}
            withAsterisk
            disabled={editing}
            error={errorText(formState.errors.username)}
            {...register('username')}
          />
          <TextInput
            label={t('users.field.email')}
            type="email"
            error={errorText(formState.errors.email)}
            {...register('email')}
          />
          <TextInput
            label={t('users.field.first_name')}
            error={errorText(formState.errors.firstName)}
            {...register('firstName')}
          />
          <TextInput
            label={t('users.field.last_name')}
            error={errorText(formState.errors.lastName)}
            {...register('lastName')}
          />
          <TextInput label={t('users.field.title')} error={errorText(formState.errors.title)} {...register('title')} />
        </SimpleGrid>
        <Textarea
          label={t('users.field.description')}
          autosize
          minRows={2}
          error={errorText(formState.errors.description)}
          {...register('description')}
        />
        <Checkbox label={t('users.field.active')} {...register('enabled')} />

        <Stack gap="sm">
          <Text fw={600}>{t('users.registration.relations')}</Text>
          {areaFields.fields.map((field, index) => (
            <AreaRelations
              key={field.id}
              index={index}
              control={control}
              areaId={field.areaId}
              areaName={areas.nameOf(field.areaId)}
              roleOptions={roleOptions}
              error={errorText(formState.errors.areas?.[index]?.organisations as FieldError | undefined)}
              onRemove={
                across
                  ? () => {
                      if (stored?.areas.some((a) => a.areaId === field.areaId)) {
                        setRemoved((list) => [...list, field.areaId]);
                      }
                      areaFields.remove(index);
                    }
                  : undefined
              }
            />
          ))}
          {across && (
            <Group align="end">
              <Select
                label={t('users.registration.add_area')}
                placeholder={t('please_select')}
                nothingFoundMessage={t('no_options')}
                data={addableAreas}
                value={areaToAdd}
                onChange={setAreaToAdd}
                searchable
              />
              <Button
                variant="outline"
                disabled={!areaToAdd}
                onClick={() => {
                  if (!areaToAdd) return;
                  setRemoved((list) => list.filter((id) => id !== areaToAdd));
                  areaFields.append({ areaId: areaToAdd, marketFunctions: [], organisations: [] });
                  setAreaToAdd(null);
                }}
              >
                {t('users.registration.add')}
              </Button>
            </Group>
          )}
        </Stack>

        <Fieldset legend={t('users.registration.password')}>
          <Stack gap="xs">
            <Checkbox
              label={editing ? t('users.registration.set_new_password') : t('users.registration.set_initial_password')}
              {...register('setPassword')}
            />
            {setPassword && (
              <PasswordInput
                label={t('users.field.password')}
                autoComplete="new-password"
                error={errorText(formState.errors.password)}
                {...register('password')}
              />
            )}
            {!setPassword && !editing && <Text size="sm">{t('users.registration.no_password_hint')}</Text>}
            {editing && isAdministrator && (
              <Group>
                <Button variant="outline" onClick={() => void onReset()} loading={reset.isPending}>
                  {t('users.registration.reset_password')}
                </Button>
              </Group>
            )}
            {newPassword && (
              <Alert color="blue" data-testid="new-password">
                <Text size="sm">{t('users.registration.new_password_once')}</Text>
                <Code>{newPassword}</Code>
              </Alert>
            )}
          </Stack>
        </Fieldset>

        <Group>
          <Button type="submit" loading={save.isPending} disabled={blocked}>
            {t('users.registration.save')}
          </Button>
          <Button component={Link} to={overviewPath} variant="subtle">
            {t('users.registration.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface AreaRelationsProps {
  index: number;
  control: Control<UserFormValues>;
  areaId: string;
  areaName: string;
  roleOptions: { value: Role; label: string }[];
  error: string | undefined;
  onRemove?: () => void;
}

/** One area of the user: its market functions and its organisation relations there. */
function AreaRelations({ index, control, areaId, areaName, roleOptions, error, onRemove }: AreaRelationsProps) {
  const { t } = useAdminT();
  const organisations = useQuery(areaOrganisationsQuery(areaId));
  const options = (organisations.data ?? []).map((o) => ({ value: o.uuid, label: o.name })).sort(byLabel);
  return (
    <Fieldset
      legend={
        <Group gap="xs">
          <Text fw={500}>{areaName}</Text>
          {onRemove && (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('users.registration.remove_area', { area: areaName })}
              onClick={onRemove}
            >
              ×
            </ActionIcon>
          )}
        </Group>
      }
      data-testid="user-area"
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={control}
          name={`areas.${index}.marketFunctions`}
          render={({ field }) => (
            <MultiSelect
              label={t('users.field.market_functions')}
              data={roleOptions}
              value={field.value}
              onChange={(v) => field.onChange(v as Role[])}
              onBlur={field.onBlur}
              searchable
              nothingFoundMessage={t('no_options')}
            />
          )}
        />
        <Controller
          control={control}
          name={`areas.${index}.organisations`}
          render={({ field }) => (
            <MultiSelect
              label={t('users.field.organisations')}
              data={options}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={error}
              searchable
              nothingFoundMessage={t('no_options')}
            />
          )}
        />
      </SimpleGrid>
    </Fieldset>
  );
}
