import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Loader,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import {
  DEFAULT_FTP_PORT,
  DEFAULT_SFTP_PORT,
  DESTINATION_TYPES,
  FTP_PROTOCOLS,
  LANGUAGES,
  REPORT_FORMATS,
  SCHEDULE_FREQUENCIES,
  reportScheduleBodySchema,
  type DestinationType,
  type ReportFormat,
  type ReportLanguage,
  type ReportName,
  type ReportSchedule,
  type ReportScheduleBodyInput,
  type ScheduleFrequency,
} from '@railwatt/contracts';
import { useEffect, useState } from 'react';
import { Controller, useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError, apiErrorMessages } from '../../../lib/errors';
import type { ScreenProps } from '../../../lib/routes';
import { useNamespaceT } from '../../../lib/use-namespace-t';
import { reportSchedulesQuery, useSaveReportSchedule } from '../api/report-schedules';

/** The form's fields, flat as product.md §3 lists them; the body nests the destination (toBody). */
export interface ScheduleFormValues {
  name: string;
  frequency: ScheduleFrequency;
  time: string;
  dayOfWeek: string | null;
  dayOfMonth: number | string;
  daysAfterPeriod: number | string;
  monthsAfterPeriod: number | string;
  format: ReportFormat;
  language: ReportLanguage;
  correction: boolean;
  destinationType: DestinationType;
  protocol: string;
  host: string;
  port: number | string;
  remoteDirectory: string;
  username: string;
  password: string;
  webserviceUri: string;
}

const FIELD_OF_PATH: Record<string, keyof ScheduleFormValues> = {
  'destination.destinationType': 'destinationType',
  'destination.protocol': 'protocol',
  'destination.host': 'host',
  'destination.port': 'port',
  'destination.remoteDirectory': 'remoteDirectory',
  'destination.username': 'username',
  'destination.password': 'password',
  'destination.webserviceUri': 'webserviceUri',
};
const fieldOf = (path: string): keyof ScheduleFormValues | undefined =>
  FIELD_OF_PATH[path] ?? (path.includes('.') ? undefined : (path as keyof ScheduleFormValues));

const num = (v: number | string) => (v === '' ? Number.NaN : Number(v));

/** The body of the save call from the form (the report's refs and parameters kept from `kept`). */
export function toBody(
  v: ScheduleFormValues,
  reportName: ReportName,
  kept: Pick<ReportSchedule, 'id' | 'refs' | 'reportSpecificParameters'> | null,
): ReportScheduleBodyInput {
  const password = v.password === '' ? {} : { password: v.password };
  const destination: ReportScheduleBodyInput['destination'] =
    v.destinationType === 'my email'
      ? { destinationType: 'my email' }
      : v.destinationType === 'webservice'
        ? {
            destinationType: 'webservice',
            webserviceUri: v.webserviceUri.trim(),
            ...(v.username.trim() ? { username: v.username } : {}),
            ...password,
          }
        : v.destinationType === 'ftp'
          ? {
              destinationType: 'ftp',
              protocol: v.protocol as 'FTP' | 'FTPS',
              host: v.host,
              port: num(v.port),
              remoteDirectory: v.remoteDirectory,
              username: v.username,
              ...password,
            }
          : {
              destinationType: 'sftp',
              host: v.host,
              port: num(v.port),
              remoteDirectory: v.remoteDirectory,
              username: v.username,
              ...password,
            };
  return {
    ...(kept ? { id: kept.id, refs: kept.refs, reportSpecificParameters: kept.reportSpecificParameters } : {}),
    name: v.name,
    reportName,
    frequency: v.frequency,
    time: v.time,
    dayOfWeek: v.frequency === 'weekly' && v.dayOfWeek ? Number(v.dayOfWeek) : null,
    dayOfMonth: v.frequency === 'monthly' ? num(v.dayOfMonth) : null,
    daysAfterPeriod: num(v.daysAfterPeriod),
    monthsAfterPeriod: num(v.monthsAfterPeriod),
    format: v.format,
    language: v.language,
    correction: v.correction,
    destination,
  };
}

function initialValues(s: ReportSchedule | null, language: ReportLanguage): ScheduleFormValues {
  const d = s?.destination;
  const has = <K extends string>(key: K) => (d && key in d ? String((d as Record<string, unknown>)[key] ?? '') : '');
  return {
    name: s?.name ?? '',
    frequency: s?.frequency ?? 'monthly',
    time: s?.time ?? '06:00',
    dayOfWeek: s?.dayOfWeek ? String(s.dayOfWeek) : '1',
    dayOfMonth: s?.dayOfMonth ?? 5,
    daysAfterPeriod: s?.daysAfterPeriod ?? 0,
    monthsAfterPeriod: s?.monthsAfterPeriod ?? 0,
    format: s?.format ?? 'xlsx',
    language: s?.language ?? language,
    correction: s?.correction ?? false,
    destinationType: d?.destinationType ?? 'my email',
    protocol: has('protocol') || 'FTP',
    host: has('host'),
    port: has('port') || DEFAULT_FTP_PORT,
    remoteDirectory: has('remoteDirectory') || '/',
    username: has('username'),
    password: '',
    webserviceUri: has('webserviceUri'),
  };
}

/**
 * /reports/<report>/schedule: a new schedule of the report, or with ?id= a change of one (issue 20
 * item 6). The form checks the contract (reportScheduleBodySchema) before sending; a password is
 * typed only to set or replace it (never shown again) and is sent to .../with-credentials. After the
 * save the report's schedules are shown.
 */
export function ReportSchedulePage(props: ScreenProps) {
  const { t, tRoot, i18n } = useNamespaceT('reportSchedule');
  const report = useLocation().pathname.split('/')[2] as ReportName;
  const id = useSearchParams()[0].get('id');
  const schedules = useQuery({ ...reportSchedulesQuery(report), enabled: id !== null });
  const existing = id ? (schedules.data?.find((s) => s.id === id) ?? null) : null;
  if (id && schedules.isPending) return <Loader size="sm" role="status" aria-label={t('loading')} />;
  return (
    <Stack gap="md">
      <PageTitle {...props} />
      {id && schedules.isError && <Alert color="red">{apiErrorMessages(schedules.error, tRoot).join(' ')}</Alert>}
      {id && schedules.data && !existing ? (
        <Alert color="yellow">{t('form.notFound')}</Alert>
      ) : (
        <ScheduleForm
          key={existing?.id ?? 'new'}
          report={report}
          existing={existing}
          language={i18n.language as ReportLanguage}
        />
      )}
    </Stack>
  );
}

function ScheduleForm({
  report,
  existing,
  language,
}: {
  report: ReportName;
  existing: ReportSchedule | null;
  language: ReportLanguage;
}) {
  const { t, tRoot } = useNamespaceT('reportSchedule');
  const navigate = useNavigate();
  const save = useSaveReportSchedule();
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  // The contract checks the body the form makes; its messages go on the fields they name.
  const resolver: Resolver<ScheduleFormValues> = async (values) => {
    const parsed = reportScheduleBodySchema.safeParse(toBody(values, report, existing));
    if (parsed.success) return { values, errors: {} };
    const errors: FieldErrors<ScheduleFormValues> = {};
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path.map(String).join('.'));
      if (field && !errors[field])
        errors[field] = { type: issue.code, message: t(`rule.${field}`, { defaultValue: issue.message }) };
    }
    return { values: {}, errors };
  };
  const form = useForm<ScheduleFormValues>({ resolver, defaultValues: initialValues(existing, language) });
  const { register, control, watch, formState, setValue } = form;
  const [frequency, destinationType] = watch(['frequency', 'destinationType']);
  const remote = destinationType === 'ftp' || destinationType === 'sftp';
  // A new server type starts from its own port.
  useEffect(() => {
    if (destinationType === 'sftp' && num(form.getValues('port')) === DEFAULT_FTP_PORT)
      setValue('port', DEFAULT_SFTP_PORT);
    if (destinationType === 'ftp' && num(form.getValues('port')) === DEFAULT_SFTP_PORT)
      setValue('port', DEFAULT_FTP_PORT);
  }, [destinationType, form, setValue]);
  const error = (field: keyof ScheduleFormValues) => formState.errors[field]?.message;

  const onSubmit = form.handleSubmit((values) => {
    setServerErrors([]);
    save.mutate(toBody(values, report, existing), {
      onSuccess: (saved) => {
        notifications.show({ color: 'green', message: t('form.saved', { name: saved.name }) });
        void navigate(`/reports/schedules/${report}`);
      },
      onError: (failure) => {
        const rest: string[] = [];
        const fieldErrors = failure instanceof ApiError ? (failure.envelope?.errors ?? []) : [];
        for (const e of fieldErrors) {
          const field = e.field ? fieldOf(e.field) : undefined;
          if (field && field in values) form.setError(field, { type: 'server', message: e.message });
          else rest.push(e.message);
        }
        if (fieldErrors.length === 0) {
          const envelope = failure instanceof ApiError ? failure.envelope : null;
          // 'The schedule report name already exists.' belongs to the name.
          if (envelope?.code === 'uniquename' && envelope.message)
            form.setError('name', { type: 'server', message: envelope.message });
          else rest.push(...apiErrorMessages(failure, tRoot));
        }
        setServerErrors(rest);
      },
    });
  });

  const weekdays = [1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: String(d), label: t(`weekday.${d}`) }));
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <TextInput label={t('field.name')} required {...register('name')} error={error('name')} />
          <Controller
            control={control}
            name="frequency"
            render={({ field }) => (
              <Select
                label={t('field.frequency')}
                data={SCHEDULE_FREQUENCIES.map((f) => ({ value: f, label: t(`frequency.${f}`) }))}
                value={field.value}
                allowDeselect={false}
                onChange={(v) => v && field.onChange(v)}
              />
            )}
          />
          <TextInput
            label={t('field.time')}
            placeholder="HH:MM"
            required
            {...register('time')}
            error={error('time')}
            description={t('form.timeZone')}
          />
          {frequency === 'weekly' && (
            <Controller
              control={control}
              name="dayOfWeek"
              render={({ field }) => (
                <Select
                  label={t('field.dayOfWeek')}
                  data={weekdays}
                  value={field.value}
                  allowDeselect={false}
                  onChange={field.onChange}
                  error={error('dayOfWeek')}
                />
              )}
            />
          )}
          {frequency === 'monthly' && (
            <Controller
              control={control}
              name="dayOfMonth"
              render={({ field }) => (
                <NumberInput
                  label={t('field.dayOfMonth')}
                  min={1}
                  max={31}
                  allowDecimal={false}
                  value={field.value}
                  onChange={field.onChange}
                  error={error('dayOfMonth')}
                />
              )}
            />
          )}
          <Controller
            control={control}
            name="daysAfterPeriod"
            render={({ field }) => (
              <NumberInput
                label={t('field.daysAfterPeriod')}
                min={0}
                max={31}
                allowDecimal={false}
                value={field.value}
                onChange={field.onChange}
                error={error('daysAfterPeriod')}
              />
            )}
          />
          <Controller
            control={control}
            name="monthsAfterPeriod"
            render={({ field }) => (
              <NumberInput
                label={t('field.monthsAfterPeriod')}
                min={0}
                max={12}
                allowDecimal={false}
                value={field.value}
                onChange={field.onChange}
                error={error('monthsAfterPeriod')}
              />
            )}
          />
          <Controller
            control={control}
            name="format"
            render={({ field }) => (
              <Select
                label={t('field.format')}
                data={REPORT_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))}
                value={field.value}
                allowDeselect={false}
                onChange={(v) => v && field.onChange(v)}
              />
            )}
          />
          <Controller
            control={control}
            name="language"
            render={({ field }) => (
              <Select
                label={t('field.language')}
                data={LANGUAGES.map((l) => ({ value: l, label: tRoot(`shell.language.${l}`) }))}
                value={field.value}
                allowDeselect={false}
                onChange={(v) => v && field.onChange(v)}
              />
            )}
          />
          <Controller
            control={control}
            name="destinationType"
            render={({ field }) => (
              <Select
                label={t('field.destinationType')}
                data={DESTINATION_TYPES.map((d) => ({ value: d, label: t(`destinationType.${d}`) }))}
                value={field.value}
                allowDeselect={false}
                onChange={(v) => v && field.onChange(v)}
              />
            )}
          />
          {destinationType === 'ftp' && (
            <Controller
              control={control}
              name="protocol"
              render={({ field }) => (
                <Select
                  label={t('field.protocol')}
                  data={FTP_PROTOCOLS.map((p) => ({ value: p, label: p }))}
                  value={field.value}
                  allowDeselect={false}
                  onChange={(v) => v && field.onChange(v)}
                />
              )}
            />
          )}
          {remote && (
            <>
              <TextInput label={t('field.host')} required {...register('host')} error={error('host')} />
              <Controller
                control={control}
                name="port"
                render={({ field }) => (
                  <NumberInput
                    label={t('field.port')}
                    min={1}
                    max={65535}
                    allowDecimal={false}
                    value={field.value}
                    onChange={field.onChange}
                    error={error('port')}
                  />
                )}
              />
              <TextInput
                label={t('field.remoteDirectory')}
                {...register('remoteDirectory')}
                error={error('remoteDirectory')}
              />
            </>
          )}
          {destinationType === 'webservice' && (
            <TextInput
              label={t('field.webserviceUri')}
              required
              {...register('webserviceUri')}
              error={error('webserviceUri')}
            />
          )}
          {destinationType !== 'my email' && (
            <>
              <TextInput
                label={t('field.username')}
                required={remote}
                autoComplete="off"
                {...register('username')}
                error={error('username')}
              />
              <PasswordInput
                label={t('field.password')}
                required={
                  remote && !(existing && 'hasPassword' in existing.destination && existing.destination.hasPassword)
                }
                autoComplete="new-password"
                description={
                  existing && 'hasPassword' in existing.destination && existing.destination.hasPassword
                    ? t('form.passwordKept')
                    : undefined
                }
                {...register('password')}
                error={error('password')}
              />
            </>
          )}
        </SimpleGrid>
        <Controller
          control={control}
          name="correction"
          render={({ field }) => (
            <Checkbox
              label={t('field.correction')}
              description={t('form.correctionHelp')}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
            />
          )}
        />
        {serverErrors.length > 0 && (
          <Alert color="red" data-testid="schedule-errors">
            {serverErrors.join(' ')}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('form.save')}
          </Button>
          <Anchor component={Link} to={`/reports/schedules/${report}`}>
            {t('form.cancel')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
