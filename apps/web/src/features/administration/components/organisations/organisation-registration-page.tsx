import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  List,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, type FieldError } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  dayRangeInZone,
  EXPORT_DESTINATION_TYPES,
  ORGANISATION_TYPES,
  REPORT_FILE_FORMATS,
  REPORT_LANGUAGES,
  ROLES,
  type VersionedEntity,
} from '@railwatt/contracts';
import { DayInput } from '../../../../components/ui/set-status-dialog';
import { apiErrorMessages } from '../../../../lib/errors';
import type { ScreenProps } from '../../../../lib/routes';
import { useMarketStore } from '../../../../lib/stores/market-store';
import { useModalStore } from '../../../../lib/stores/modal-store';
import {
  branchesQuery,
  exchangeAdminsQuery,
  organisationListQuery,
  organisationQuery,
  useSaveOrganisation,
} from '../../api/organisations';
import { useAdminT } from '../../hooks/use-admin-t';
import { AdminPageTitle } from '../admin-page-title';
import {
  emptyOrganisationForm,
  organisationFormSchema,
  toOrganisationForm,
  toOrganisationSave,
  type OrganisationFormValues,
} from './organisation-form-schema';
import { ServerErrors } from '../../../../components/ui/api-error';

export const ORGANISATION_PATHS = {
  registration: '/administration/organisation/registration',
  overview: '/administration/organisation/overview',
} as const;

/** Europe/Oslo when no area is chosen yet (the Master Data zone, product.md §9). */
const FALLBACK_ZONE = 'Europe/Oslo';

const byLabel = (a: { label: string }, b: { label: string }) =>
  a.label.localeCompare(b.label, undefined, { numeric: true, sensitivity: 'base' });

/** /administration/organisation/registration (?uuid= to edit). */
export function OrganisationRegistrationPage(props: Partial<ScreenProps>) {
  const [params] = useSearchParams();
  const uuid = params.get('uuid');
  const { t, tRoot } = useAdminT();
  const stored = useQuery({ ...organisationQuery(uuid ?? ''), enabled: Boolean(uuid) });
  if (uuid) {
    if (stored.isPending) return <Text>{t('organisations.registration.loading')}</Text>;
    if (stored.isError) {
      return (
        <Stack>
          <AdminPageTitle screen={props} fallbackKey="organisations.registration.title" />
          <Alert color="red">
            {apiErrorMessages(stored.error, tRoot).join(' ') || t('organisations.registration.load_failed')}
          </Alert>
        </Stack>
      );
    }
    return (
      <OrganisationForm key={uuid} screen={props} stored={stored.data} initial={toOrganisationForm(stored.data)} />
    );
  }
  return <OrganisationForm screen={props} initial={emptyOrganisationForm()} />;
}

interface OrganisationFormProps {
  screen: Partial<ScreenProps>;
  initial: OrganisationFormValues;
  stored?: VersionedEntity;
}

function OrganisationForm({ screen, initial, stored }: OrganisationFormProps) {
  const { t, tRoot } = useAdminT();
  const navigate = useNavigate();
  const openModal = useModalStore((s) => s.open);
  const timeZone = useMarketStore((s) => s.timeZone) ?? FALLBACK_ZONE;
  const isAdministrator = useMarketStore((s) => s.rolesInArea.includes('erex-administrator'));
  const save = useSaveOrganisation();
  const exchangeAdmins = useQuery({ ...exchangeAdminsQuery(), enabled: isAdministrator });
  const organisations = useQuery(organisationListQuery(false));
  const branches = useQuery({ ...branchesQuery(), enabled: Boolean(stored) });
  const [serverErrors, setServerErrors] = useState<string[]>([]);

  const form = useForm<OrganisationFormValues>({
    resolver: zodResolver(organisationFormSchema),
    defaultValues: initial,
    mode: 'onTouched',
  });
  const { register, control, formState, watch } = form;
  const types = watch('organisationTypes');

  const label = (field: string) => t(`organisations.field.${field}`);
  const errorText = (field: string, error: FieldError | undefined): string | undefined =>
    error?.message
      ? t(`organisations.validation.${error.message}`, { field: label(field), defaultValue: error.message })
      : undefined;

  const typeOptions = ORGANISATION_TYPES.map((type) => ({ value: type, label: t(`organisations.type.${type}`) })).sort(
    byLabel,
  );
  const functionOptions = ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) })).sort(byLabel);
  const parentOptions = (organisations.data ?? [])
    .filter((o) => o.uuid !== stored?.uuid)
    .map((o) => ({ value: o.uuid, label: o.name }))
    .sort(byLabel);
  const exchangeAdminOptions = (exchangeAdmins.data ?? []).map((o) => ({ value: o.uuid, label: o.name })).sort(byLabel);
  const ownBranches = (branches.data ?? []).filter((b) => stored && b.organisationUuid === stored.uuid);

  const onSubmit = form.handleSubmit(async (values) => {
    setServerErrors([]);
    const timeRange =
      values.validFrom || values.validTo || !stored
        ? dayRangeInZone(values.validFrom, values.validTo, timeZone)
        : undefined;
    try {
      await save.mutateAsync(toOrganisationSave(values, timeRange, stored, isAdministrator));
      openModal({
        type: 'confirmation',
        message: t('organisations.registration.saved'),
        redirectTo: ORGANISATION_PATHS.overview,
      });
      void navigate(ORGANISATION_PATHS.overview);
    } catch (error) {
      setServerErrors(apiErrorMessages(error, tRoot));
    }
  });

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="md" maw={900}>
        <AdminPageTitle screen={screen} fallbackKey="organisations.registration.title" />
        <ServerErrors messages={serverErrors} testId="organisation-save-errors" dense />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={label('name')}
            withAsterisk
            error={errorText('name', formState.errors.name)}
            {...register('name')}
          />
          <TextInput
            label={label('org_id')}
            withAsterisk
            error={errorText('org_id', formState.errors.orgId)}
            {...register('orgId')}
          />
          <Controller
            control={control}
            name="organisationTypes"
            render={({ field }) => (
              <MultiSelect
                label={label('organisation_types')}
                withAsterisk
                data={typeOptions}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={errorText('organisation_types', formState.errors.organisationTypes as FieldError | undefined)}
                searchable
                nothingFoundMessage={t('no_options')}
              />
            )}
          />
          <Controller
            control={control}
            name="marketFunctions"
            render={({ field }) => (
              <MultiSelect
                label={label('market_functions')}
                data={functionOptions}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                searchable
                nothingFoundMessage={t('no_options')}
              />
            )}
          />
        </SimpleGrid>
        <TextInput
          label={label('emails')}
          description={label('emails_hint')}
          withAsterisk
          error={errorText('emails', formState.errors.emails)}
          {...register('emails')}
        />

        <Fieldset legend={t('organisations.registration.report_settings')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Controller
              control={control}
              name="language"
              render={({ field }) => (
                <Select
                  label={label('language')}
                  placeholder={t('please_select')}
                  data={REPORT_LANGUAGES.map((l) => ({ value: l, label: t(`organisations.language.${l}`) }))}
                  value={field.value}
                  onChange={field.onChange}
                  clearable
                />
              )}
            />
            <Controller
              control={control}
              name="fileFormat"
              render={({ field }) => (
                <Select
                  label={label('file_format')}
                  placeholder={t('please_select')}
                  data={REPORT_FILE_FORMATS.map((f) => ({ value: f, label: f }))}
                  value={field.value}
                  onChange={field.onChange}
                  clearable
                />
              )}
            />
            <TextInput
              label={label('scheduled_report_first_day')}
              inputMode="numeric"
              error={errorText('scheduled_report_first_day', formState.errors.scheduledReportFirstDay)}
              {...register('scheduledReportFirstDay')}
            />
          </SimpleGrid>
          <Checkbox mt="sm" label={label('correction')} {...register('correction')} />
        </Fieldset>

        <Fieldset legend={t('organisations.registration.export_config')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Controller
              control={control}
              name="destinationType"
              render={({ field }) => (
                <Select
                  label={label('destination_type')}
                  placeholder={t('please_select')}
                  data={EXPORT_DESTINATION_TYPES.map((d) => ({ value: d, label: t(`organisations.destination.${d}`) }))}
                  value={field.value}
                  onChange={field.onChange}
                  clearable
                />
              )}
            />
            <TextInput label={label('protocol')} {...register('protocol')} />
            <TextInput label={label('host')} {...register('host')} />
            <TextInput
              label={label('port')}
              inputMode="numeric"
              error={errorText('port', formState.errors.port)}
              {...register('port')}
            />
            <TextInput label={label('remote_directory')} {...register('remoteDirectory')} />
            <TextInput label={label('webservice_uri')} {...register('webserviceUri')} />
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend={t('organisations.registration.branches')}>
          <Stack gap="xs">
            {types.includes('BRANCH') && (
              <Controller
                control={control}
                name="parentOrganisationRef"
                render={({ field }) => (
                  <Select
                    label={label('parent_organisation')}
                    placeholder={t('please_select')}
                    nothingFoundMessage={t('no_options')}
                    data={parentOptions}
                    value={field.value}
                    onChange={field.onChange}
                    searchable
                    clearable
                  />
                )}
              />
            )}
            {stored &&
              (ownBranches.length > 0 ? (
                <List size="sm" data-testid="organisation-branches">
                  {ownBranches.map((b) => (
                    <List.Item key={b.uuid}>{b.name}</List.Item>
                  ))}
                </List>
              ) : (
                <Text size="sm">{t('organisations.registration.no_branches')}</Text>
              ))}
          </Stack>
        </Fieldset>

        {isAdministrator && (
          <Controller
            control={control}
            name="exchangeAdminRef"
            render={({ field }) => (
              <Select
                label={label('exchange_admin')}
                placeholder={t('please_select')}
                nothingFoundMessage={t('no_options')}
                data={exchangeAdminOptions}
                value={field.value}
                onChange={field.onChange}
                searchable
                clearable
              />
            )}
          />
        )}

        <Fieldset legend={t('organisations.registration.validity')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={control}
              name="validFrom"
              render={({ field }) => (
                <DayInput label={label('valid_from')} value={field.value} onChange={field.onChange} clearable />
              )}
            />
            <Controller
              control={control}
              name="validTo"
              render={({ field }) => (
                <DayInput
                  label={label('valid_to')}
                  value={field.value}
                  onChange={field.onChange}
                  error={errorText('valid_to', formState.errors.validTo)}
                  clearable
                />
              )}
            />
          </SimpleGrid>
        </Fieldset>

        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('organisations.registration.save')}
          </Button>
          <Button component={Link} to={ORGANISATION_PATHS.overview} variant="subtle">
            {t('organisations.registration.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
