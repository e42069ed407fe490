import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Controller, useFieldArray, useForm, type FieldError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate, useSearchParams } from 'react-router';
import {
  buildConsumptionPointName,
  buildCpid,
  DEFAULT_TIME_RANGE,
  ERROR_CODES,
  ENERGY_TYPES,
  MESSAGES,
  type TractionUnitSaveRequest,
  type VersionedEntity,
} from '@railwatt/contracts';
import { DayInput } from '../../../components/ui/set-status-dialog';
import { ApiError, apiErrorMessages } from '../../../lib/errors';
import { useModalStore } from '../../../lib/stores/modal-store';
import { entityQuery, minimalAllQuery, organisationsQuery, ownerChoicesQuery } from '../api/fleet-queries';
import { useSaveTractionUnit } from '../api/fleet-mutations';
import { useFleetContext } from '../hooks/use-fleet-context';
import { useFleetT } from '../hooks/use-fleet-t';
import {
  emptyConsumptionPoint,
  emptyRegistration,
  readRuleMessage,
  registrationFormSchema,
  type RegistrationFormValues,
} from './registration-schema';
import { splitEvnErrors } from './registration-errors';
import { ServerErrors } from '../../../components/ui/api-error';

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const byName = (a: { label: string }, b: { label: string }) =>
  a.label.localeCompare(b.label, undefined, { numeric: true, sensitivity: 'base' });

/** The form values of a stored unit and its consumption points (attributes are merged on the entity). */
function toFormValues(unit: VersionedEntity, points: VersionedEntity[]): RegistrationFormValues {
  return {
    ...emptyRegistration(),
    uuid: unit.uuid,
    name: unit.name,
    evn: str(unit.evn),
    description: str(unit.description),
    owner: str(unit.owner),
    tractionUnitTypeRef: str(unit.tractionUnitTypeRef),
    consumptionPoints: points.map((p) => ({
      uuid: p.uuid,
      nvr: str(p.nvr),
      vkm: str(p.vkm),
      emsId: str(p.emsId),
      emsType: str(p.emsType),
      channels: str(p.channels),
      energyTypes: Array.isArray(p.energyTypes)
        ? (p.energyTypes as RegistrationFormValues['consumptionPoints'][number]['energyTypes'])
        : [],
    })),
  };
}

/** /fleet/registration (?uuid= to edit): a traction unit, its type and its consumption points. */
export function FleetRegistrationPage() {
  const [params] = useSearchParams();
  const uuid = params.get('uuid');
  const unit = useQuery({ ...entityQuery('tractionunit', uuid ?? ''), enabled: Boolean(uuid) });
  const refs = Array.isArray(unit.data?.consumptionPointRefs) ? (unit.data.consumptionPointRefs as string[]) : [];
  const points = useQueries({ queries: refs.map((ref) => entityQuery('consumptionpoint', ref)) });
  const { t } = useFleetT();
  // Whether a vehicle keeper may edit the unit depends on its owner choices: known before the form shows.
  const { ownFleetOnly } = useFleetContext();
  const owners = useQuery({ ...ownerChoicesQuery(), enabled: Boolean(uuid) && ownFleetOnly });

  if (uuid) {
    if (unit.isPending || points.some((p) => p.isPending) || (ownFleetOnly && owners.isPending)) {
      return <Text>{t('registration.loading')}</Text>;
    }
    if (unit.isError) return <RegistrationError error={unit.error} />;
    const loaded = points.map((p) => p.data).filter((p): p is VersionedEntity => Boolean(p));
    return <RegistrationForm key={uuid} initial={toFormValues(unit.data, loaded)} editing />;
  }
  return <RegistrationForm initial={emptyRegistration()} editing={false} />;
}

function RegistrationError({ error }: { error: unknown }) {
  const { t, tRoot } = useFleetT();
  return (
    <Stack>
      <Title order={1}>{t('registration.title_edit')}</Title>
      <Alert color="red">{apiErrorMessages(error, tRoot).join(' ') || t('registration.load_failed')}</Alert>
    </Stack>
  );
}

function RegistrationForm({ initial, editing }: { initial: RegistrationFormValues; editing: boolean }) {
  const { t, tRoot } = useFleetT();
  const navigate = useNavigate();
  const openModal = useModalStore((s) => s.open);
  const { canWrite, ownFleetOnly, toRange } = useFleetContext();
  const types = useQuery(minimalAllQuery('tractionunittype'));
  const organisations = useQuery(organisationsQuery());
  const owners = useQuery(ownerChoicesQuery());
  const save = useSaveTractionUnit();
  const [serverErrors, setServerErrors] = useState<string[]>([]);

  const form = useForm<RegistrationFormValues>({
    resolver: zodResolver(registrationFormSchema),
    defaultValues: initial,
    mode: 'onTouched',
  });
  const { register, control, watch, formState } = form;
  const cps = useFieldArray({ control, name: 'consumptionPoints' });
  const typeMode = watch('typeMode');
  const evn = watch('evn');
  const cpValues = watch('consumptionPoints');

  /** A field error as its verbatim product.md §5 message, with the field's label put in. */
  const errorText = (error: FieldError | undefined): string | undefined => {
    if (!error?.message) return undefined;
    // A server refusal placed on its field is already the user's text ('Property must be unique').
    if (error.type === 'server') return error.message;
    const rule = readRuleMessage(error.message);
    if (!rule) return t(error.message, { defaultValue: error.message });
    return t(`validation.${rule.rule}`, { ...rule, field: t(`registration.field.${rule.field}`) });
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setServerErrors([]);
    const timeRange = values.validFrom
      ? toRange(values.validFrom, null)
      : editing
        ? undefined
        : { ...DEFAULT_TIME_RANGE };
    const request: TractionUnitSaveRequest = {
      tractionUnit: {
        uuid: values.uuid,
        type: 'TractionUnit',
        name: values.name.trim(),
        evn: values.evn.trim(),
        description: values.description.trim() === '' ? null : values.description.trim(),
        owner: values.owner,
        tractionUnitTypeRef: values.typeMode === 'existing' ? values.tractionUnitTypeRef : undefined,
        timeRange,
      },
      tractionUnitType:
        values.typeMode === 'new'
          ? {
              type: 'TractionUnitType',
              name: values.newType.name.trim(),
              maxSpeed: values.newType.maxSpeed === '' ? null : Number(values.newType.maxSpeed.replace(',', '.')),
              maxPower: values.newType.maxPower === '' ? null : Number(values.newType.maxPower.replace(',', '.')),
              generation: values.newType.generation,
              consumption: values.newType.consumption,
              timeRange,
            }
          : undefined,
      consumptionPoints: values.consumptionPoints.map((cp) => ({
        uuid: cp.uuid,
        type: 'ConsumptionPoint',
        name: buildConsumptionPointName({ evn: values.evn.trim(), emsId: cp.emsId.trim() }),
        evn: values.evn.trim(),
        nvr: cp.nvr.trim(),
        vkm: cp.vkm.trim(),
        emsId: cp.emsId.trim(),
        emsType: cp.emsType.trim() === '' ? null : cp.emsType.trim(),
        channels: Number(cp.channels),
        energyTypes: cp.energyTypes,
        timeRange,
      })),
    };
    try {
      await save.mutateAsync(request);
      openModal({ type: 'confirmation', message: t('registration.saved'), redirectTo: '/fleet/overview' });
      void navigate('/fleet/overview');
    } catch (error) {
      // calls.md §8: a 401/403 on traction unit save means the unit belongs to another exchange admin.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        setServerErrors([
          t('messages.not_allowed_other_exchange_admin', { defaultValue: MESSAGES.notAllowedOtherExchangeAdmin }),
        ]);
      } else {
        // The EVN's refusal ('Property must be unique', a wrong check digit) goes on the EVN field, once;
        // everything else is listed above the form.
        const { evn: evnMessage, rest } = splitEvnErrors(
          error,
          tRoot('api_error_code.uniqueproperties', {
            defaultValue: ERROR_CODES.uniqueproperties,
          }),
        );
        if (evnMessage) form.setError('evn', { type: 'server', message: evnMessage }, { shouldFocus: true });
        setServerErrors(rest ? apiErrorMessages(rest, tRoot) : []);
      }
    }
  });

  const typeOptions = (types.data ?? []).map((x) => ({ value: x.uuid, label: x.name })).sort(byName);
  // A vehicle keeper chooses among its own organisations; another organisation's unit opens read-only
  // (no save). The stored owner stays listed so the form shows whose unit it is.
  const choices = owners.data ?? [];
  const ownsUnit = !editing || choices.some((o) => o.uuid === initial.owner);
  const otherOwner = ownFleetOnly && editing && (owners.isPending || !ownsUnit);
  const readOnly = !canWrite || otherOwner;
  const stored = ownsUnit ? undefined : (organisations.data ?? []).find((o) => o.uuid === initial.owner);
  const ownerOptions = [...choices, ...(stored ? [stored] : [])]
    .map((x) => ({ value: x.uuid, label: x.name }))
    .sort(byName);

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)}>
      <Stack gap="md">
        <Title order={1}>{editing ? t('registration.title_edit') : t('registration.title')}</Title>
        {readOnly && !(otherOwner && owners.isPending) && (
          <Alert color="yellow" data-testid="registration-read-only">
            {t(otherOwner && canWrite ? 'registration.read_only_other_owner' : 'registration.read_only')}
          </Alert>
        )}
        <ServerErrors messages={serverErrors} testId="registration-server-errors" />

        <Fieldset variant="unstyled" disabled={readOnly} data-testid="registration-fields">
          <Stack gap="md">
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                {t('registration.unit')}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput
                  label={t('registration.field.name')}
                  withAsterisk
                  {...register('name')}
                  error={errorText(formState.errors.name)}
                />
                <TextInput
                  label={t('registration.field.evn')}
                  withAsterisk
                  inputMode="numeric"
                  {...register('evn')}
                  error={errorText(formState.errors.evn)}
                />
                <Controller
                  control={control}
                  name="owner"
                  render={({ field }) => (
                    <Select
                      label={t('registration.field.owner')}
                      withAsterisk
                      searchable
                      placeholder={t('please_select')}
                      nothingFoundMessage={t('no_options')}
                      data={ownerOptions}
                      value={field.value || null}
                      onChange={(v) => field.onChange(v ?? '')}
                      onBlur={field.onBlur}
                      error={errorText(formState.errors.owner)}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="validFrom"
                  render={({ field }) => (
                    <DayInput
                      label={t('registration.field.valid_from')}
                      clearable
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                    />
                  )}
                />
                <Textarea
                  label={t('registration.field.description')}
                  autosize
                  minRows={1}
                  {...register('description')}
                  error={errorText(formState.errors.description)}
                />
              </SimpleGrid>
              <Text size="xs" c="dimmed" mt="xs">
                {t('registration.valid_from_help')}
              </Text>
            </Paper>

            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                {t('registration.type')}
              </Title>
              <Controller
                control={control}
                name="typeMode"
                render={({ field }) => (
                  <SegmentedControl
                    mb="sm"
                    value={field.value}
                    onChange={(v) => field.onChange(v)}
                    data={[
                      { value: 'existing', label: t('registration.type_existing') },
                      { value: 'new', label: t('registration.type_new') },
                    ]}
                  />
                )}
              />
              {typeMode === 'existing' ? (
                <Controller
                  control={control}
                  name="tractionUnitTypeRef"
                  render={({ field }) => (
                    <Select
                      label={t('registration.field.type')}
                      withAsterisk
                      searchable
                      placeholder={t('please_select')}
                      nothingFoundMessage={t('no_options')}
                      data={typeOptions}
                      value={field.value || null}
                      onChange={(v) => field.onChange(v ?? '')}
                      onBlur={field.onBlur}
                      error={errorText(formState.errors.tractionUnitTypeRef)}
                    />
                  )}
                />
              ) : (
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <TextInput
                    label={t('registration.field.type_name')}
                    withAsterisk
                    {...register('newType.name')}
                    error={errorText(formState.errors.newType?.name)}
                  />
                  <TextInput
                    label={t('registration.field.max_speed')}
                    inputMode="decimal"
                    {...register('newType.maxSpeed')}
                    error={errorText(formState.errors.newType?.maxSpeed)}
                  />
                  <TextInput
                    label={t('registration.field.max_power')}
                    inputMode="decimal"
                    {...register('newType.maxPower')}
                    error={errorText(formState.errors.newType?.maxPower)}
                  />
                  <Group>
                    <Checkbox label={t('registration.field.generation')} {...register('newType.generation')} />
                    <Checkbox label={t('registration.field.consumption')} {...register('newType.consumption')} />
                  </Group>
                </SimpleGrid>
              )}
            </Paper>

            <Paper withBorder p="md">
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h4">
                  {t('registration.consumption_points')}
                </Title>
                <Button size="xs" variant="outline" onClick={() => cps.append(emptyConsumptionPoint())}>
                  {t('registration.add_cp')}
                </Button>
              </Group>
              <Stack gap="sm">
                {cps.fields.map((row, index) => {
                  const errors = formState.errors.consumptionPoints?.[index];
                  const cp = cpValues[index];
                  const cpid =
                    cp && cp.nvr && cp.vkm && evn && cp.emsId
                      ? buildCpid({ nvr: cp.nvr.trim(), vkm: cp.vkm.trim(), evn: evn.trim(), emsId: cp.emsId.trim() })
                      : '';
                  return (
                    <Paper key={row.id} withBorder p="sm" data-testid="cp-row">
                      <Group justify="space-between" mb="xs">
                        <Text size="sm" fw={500}>
                          {t('cp.cpid')}: <span data-testid="cp-cpid">{cpid || '-'}</span>
                        </Text>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('registration.remove_cp')}
                          onClick={() => cps.remove(index)}
                        >
                          ×
                        </ActionIcon>
                      </Group>
                      <SimpleGrid cols={{ base: 1, sm: 3, md: 6 }} spacing="xs">
                        <TextInput
                          label={t('registration.field.nvr')}
                          withAsterisk
                          {...register(`consumptionPoints.${index}.nvr`)}
                          error={errorText(errors?.nvr)}
                        />
                        <TextInput
                          label={t('registration.field.vkm')}
                          withAsterisk
                          {...register(`consumptionPoints.${index}.vkm`)}
                          error={errorText(errors?.vkm)}
                        />
                        <TextInput
                          label={t('registration.field.ems_id')}
                          withAsterisk
                          {...register(`consumptionPoints.${index}.emsId`)}
                          error={errorText(errors?.emsId)}
                        />
                        <TextInput
                          label={t('registration.field.ems_type')}
                          {...register(`consumptionPoints.${index}.emsType`)}
                          error={errorText(errors?.emsType)}
                        />
                        <TextInput
                          label={t('registration.field.channels')}
                          withAsterisk
                          inputMode="numeric"
                          {...register(`consumptionPoints.${index}.channels`)}
                          error={errorText(errors?.channels)}
                        />
                        <Controller
                          control={control}
                          name={`consumptionPoints.${index}.energyTypes`}
                          render={({ field }) => (
                            <MultiSelect
                              label={t('registration.field.energy_types')}
                              withAsterisk
                              data={ENERGY_TYPES.map((e) => ({ value: e, label: t(`energy_type.${e}`) }))}
                              value={field.value}
                              onChange={field.onChange}
                              onBlur={field.onBlur}
                              error={errorText(errors?.energyTypes as FieldError | undefined)}
                            />
                          )}
                        />
                      </SimpleGrid>
                    </Paper>
                  );
                })}
                {cps.fields.length === 0 && (
                  <Text size="sm" c="dimmed">
                    {t('overview.no_consumption_points')}
                  </Text>
                )}
              </Stack>
            </Paper>
          </Stack>
        </Fieldset>

        <Group justify="flex-end">
          <Button variant="subtle" onClick={() => void navigate('/fleet/overview')}>
            {t('registration.cancel')}
          </Button>
          {!readOnly && (
            <Button type="submit" loading={save.isPending}>
              {t('registration.save')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
