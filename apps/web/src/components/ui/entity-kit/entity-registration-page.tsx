import { useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Fieldset,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, type FieldError } from 'react-hook-form';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { DEFAULT_TIME_RANGE, hasEntityForm, type EntityFormKind } from '@railwatt/contracts';
import { apiErrorMessages, ApiError } from '../../../lib/errors';
import type { ScreenProps } from '../../../lib/routes';
import { useModalStore } from '../../../lib/stores/modal-store';
import { PageTitle } from '../page-title';
import { DayInput } from '../set-status-dialog';
import { entityByIdQuery, useSaveEntity } from './entity-api';
import { EntityFieldInput } from './entity-fields';
import {
  CONTRACT_MESSAGE_KEYS,
  emptyFormValues,
  entityFormSchema,
  entityToFormValues,
  readRuleMessage,
  toSaveRecord,
  visibleFields,
  type EntityFormValues,
} from './entity-form-schema';
import { registrationPathOf, type EntitySection } from './section';
import { useEntityKitContext, useEntityKitT } from './use-entity-kit';
import { ServerErrors } from '../api-error';

export interface EntityPageProps extends Partial<ScreenProps> {
  section: EntitySection;
}

/** The kind of a registration child route: the last path segment (entity/registration/<kind>). */
function kindInPath(pathname: string, section: EntitySection): EntityFormKind | undefined {
  const last = pathname.replace(/\/$/, '').split('/').pop() ?? '';
  return (section.kinds as readonly string[]).includes(last) && hasEntityForm(last) ? last : undefined;
}

/**
 * The registration page of a section with several kinds (entity/registration): its title and a
 * choice of kind; the chosen kind's form is the child route rendered below. A section with one kind
 * shows that kind's form directly.
 */
export function EntityRegistrationPage({ section, ...screen }: EntityPageProps) {
  const { t, kindLabel } = useEntityKitT();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const title = screen.titleKey ? <PageTitle titleKey={screen.titleKey} titleArgs={screen.titleArgs} /> : null;
  if (section.kinds.length === 1) {
    return (
      <Stack gap="sm">
        {title}
        <EntityForm section={section} kind={section.kinds[0]!} uuid={params.get('uuid')} />
      </Stack>
    );
  }
  const current = kindInPath(location.pathname, section) ?? null;
  return (
    <Stack gap="sm">
      {title}
      <Select
        label={t('registration.kind')}
        placeholder={t('please_select')}
        nothingFoundMessage={t('no_options')}
        data={section.kinds.map((k) => ({ value: k, label: kindLabel(k) }))}
        value={current}
        onChange={(kind) => kind && void navigate(registrationPathOf(section, kind as EntityFormKind))}
        maw={420}
        data-testid="entity-kind-choice"
      />
      {!current && <Text c="dimmed">{t('registration.choose_kind')}</Text>}
    </Stack>
  );
}

/** A child route entity/registration/<kind> (?uuid= to edit): the kind's form. */
export function EntityKindFormPage({ section, ...screen }: EntityPageProps) {
  const location = useLocation();
  const [params] = useSearchParams();
  const kind = kindInPath(location.pathname, section);
  if (!kind) return null;
  return (
    <Stack gap="sm">
      {screen.titleKey && <PageTitle titleKey={screen.titleKey} titleArgs={screen.titleArgs} />}
      <EntityForm key={`${kind}:${params.get('uuid') ?? ''}`} section={section} kind={kind} uuid={params.get('uuid')} />
    </Stack>
  );
}

/** Loads the entity to edit (when `uuid` is given) and shows the form. */
export function EntityForm({
  section,
  kind,
  uuid,
}: {
  section: EntitySection;
  kind: EntityFormKind;
  uuid: string | null;
}) {
  const { t, tRoot } = useEntityKitT();
  const entity = useQuery({ ...entityByIdQuery(kind, uuid ?? ''), enabled: Boolean(uuid) });
  if (uuid) {
    if (entity.isPending) return <Text>{t('registration.loading')}</Text>;
    if (entity.isError) {
      return (
        <Alert color="red">{apiErrorMessages(entity.error, tRoot).join(' ') || t('registration.load_failed')}</Alert>
      );
    }
    return <RegistrationForm section={section} kind={kind} initial={entityToFormValues(kind, entity.data)} editing />;
  }
  return <RegistrationForm section={section} kind={kind} initial={emptyFormValues(kind)} editing={false} />;
}

function RegistrationForm({
  section,
  kind,
  initial,
  editing,
}: {
  section: EntitySection;
  kind: EntityFormKind;
  initial: EntityFormValues;
  editing: boolean;
}) {
  const { t, tRoot, kindLabel } = useEntityKitT();
  const navigate = useNavigate();
  const openModal = useModalStore((s) => s.open);
  const { canWrite, isAdministrator, toRange } = useEntityKitContext(section);
  const save = useSaveEntity();
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const schema = useMemo(() => entityFormSchema(kind, isAdministrator), [kind, isAdministrator]);
  const form = useForm<EntityFormValues>({ resolver: zodResolver(schema), defaultValues: initial, mode: 'onTouched' });
  const { control, register, formState } = form;
  const fields = visibleFields(kind, isAdministrator);
  const overview = `${section.paths.overview}?kind=${kind}`;

  /** A form rule as 'The {field} field is required' (the field's label put in), a contract message translated. */
  const errorText = (error: FieldError | undefined): string | undefined => {
    if (!error?.message) return undefined;
    if (error.type === 'server') return error.message;
    const rule = readRuleMessage(error.message);
    if (rule)
      return t(`validation.${rule.rule}`, { ...rule, field: t(`field.${rule.field}`, { defaultValue: rule.field }) });
    const key = CONTRACT_MESSAGE_KEYS[error.message];
    return key ? t(key, { defaultValue: error.message }) : error.message;
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setServerErrors([]);
    // A new entity is valid for the whole range unless a day is chosen; an edit applies from the chosen
    // day on, else over the range of the latest segment (the server's default).
    const timeRange = values.validFrom
      ? toRange(values.validFrom, null)
      : editing
        ? undefined
        : { ...DEFAULT_TIME_RANGE };
    try {
      await save.mutateAsync(toSaveRecord(kind, values, isAdministrator, timeRange));
      openModal({ type: 'confirmation', message: t('registration.saved'), redirectTo: overview });
      void navigate(overview);
    } catch (error) {
      // A refusal of one field goes on that field; the rest is listed above the form.
      if (error instanceof ApiError && error.status === 400) {
        const known = new Set(['name', ...fields.map((f) => f.name)]);
        const errors = error.envelope?.errors ?? [];
        const placed = errors.filter((e) => e.field && known.has(e.field));
        for (const e of placed) {
          const path = e.field === 'name' ? 'name' : (`fields.${e.field!}` as const);
          form.setError(path, { type: 'server', message: e.message.replace(/^(#\d+: )?[\w.]+: /, '') });
        }
        if (placed.length > 0 && placed.length === errors.length) return;
      }
      setServerErrors(apiErrorMessages(error, tRoot));
    }
  });

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} data-testid="entity-form">
      <Stack gap="md">
        {!canWrite && (
          <Alert color="yellow" data-testid="registration-read-only">
            {t('registration.read_only')}
          </Alert>
        )}
        <ServerErrors messages={serverErrors} testId="registration-server-errors" />
        <Fieldset variant="unstyled" disabled={!canWrite}>
          <Paper withBorder p="md">
            {editing && (
              <Text fw={500} mb="sm" data-testid="entity-form-editing">
                {t('registration.edit_kind', { kind: kindLabel(kind) })}
              </Text>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                label={t('field.name')}
                withAsterisk
                {...register('name')}
                error={errorText(formState.errors.name)}
              />
              <Controller
                control={control}
                name="validFrom"
                render={({ field }) => (
                  <DayInput
                    label={t('field.validFrom')}
                    clearable
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                  />
                )}
              />
              {fields.map((field) => (
                <EntityFieldInput
                  key={field.name}
                  field={field}
                  control={control}
                  error={formState.errors.fields?.[field.name] as FieldError | undefined}
                  errorText={errorText}
                  self={initial.uuid}
                />
              ))}
              <Textarea label={t('field.comments')} autosize minRows={1} {...register('comments')} />
            </SimpleGrid>
            <Text size="xs" c="dimmed" mt="xs">
              {t('registration.valid_from_help')}
            </Text>
          </Paper>
        </Fieldset>
        <Group justify="flex-end">
          <Button variant="subtle" onClick={() => void navigate(overview)}>
            {t('registration.cancel')}
          </Button>
          {canWrite && (
            <Button type="submit" loading={save.isPending}>
              {t('registration.save')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
