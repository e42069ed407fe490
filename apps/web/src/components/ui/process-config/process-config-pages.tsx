import { useState } from 'react';
import {
  Anchor,
  Button,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  CONFIG_FIELDS,
  PROCESSING_CONFIG_SCHEMAS,
  PROCESSING_CONFIG_WRITERS,
  READ_ONLY_CONFIG_PROCEDURES,
  configProcedureOf,
  dayStartInZone,
  type ConfigField,
  type ConfigProcedure,
  type ProcessingConfigSegment,
} from '@railwatt/contracts';
import { ApiErrorText } from '../api-error';
import { PageTitle } from '../page-title';
import { SegmentsHistory } from '../segments-history';
import { DayInput } from '../set-status-dialog/day-input';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useFormat } from '../../../lib/use-format';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useNamespaceT } from '../../../lib/use-namespace-t';
import { configListQuery, configVersionsQuery, useSaveConfig } from './config-api';

/** The texts of these pages (locales/<lng>/processconfig.json). */
export const useConfigT = () => useNamespaceT('processConfig');

export interface ConfigPageProps extends ScreenProps {
  procedure: ConfigProcedure;
  /** The tpa twin (settlement, train-preprocessing; the netherlands area's tpa pages). */
  tpa?: boolean;
  /** The section's segments history page (the Monitor's by default). */
  historyPath?: string;
}

export const useTimeZone = () => useMarketStore((s) => s.timeZone) ?? 'UTC';
export const useCanWrite = () =>
  useMarketStore((s) => s.rolesInArea.some((r) => PROCESSING_CONFIG_WRITERS.includes(r)));

/** A stored value as the page shows it: yes/no, a number, text, or a dash. */
export function FieldValue({ field, value }: { field: ConfigField; value: unknown }) {
  const { t } = useConfigT();
  const f = useFormat();
  if (value === undefined || value === null || value === '') return <>–</>;
  if (field.kind === 'boolean') return <>{value ? t('yes') : t('no')}</>;
  if (field.kind === 'select') return <>{t(`option.${String(value)}`, { defaultValue: String(value) })}</>;
  // Numbers in the separators of the user's language (at most 4 decimals), a percentage with 2.
  if (typeof value === 'number' && field.unit === 'percent') return <>{f.percent(value)}</>;
  return (
    <>
      {typeof value === 'number' ? f.number(value) : String(value)}
      {field.unit ? ` ${t(`unit.${field.unit}`)}` : ''}
    </>
  );
}

/** configuration/view: the values of the version in use now, read-only, with its range and comments. */
export function ConfigViewPage({
  procedure,
  tpa = false,
  historyPath = '/monitor/processes/segmentshistory',
  ...screen
}: ConfigPageProps) {
  const { t } = useConfigT();
  const timeZone = useTimeZone();
  const canEdit = useCanWrite() && !READ_ONLY_CONFIG_PROCEDURES.includes(procedure);
  const list = useQuery(configListQuery(procedure, tpa));
  const current: ProcessingConfigSegment | undefined = list.data?.current;

  return (
    <Stack gap="md">
      <PageTitle {...screen} />
      <ApiErrorText error={list.isError ? list.error : null} />
      {current && (
        <>
          <Text data-testid="config-range">
            {current.id === 0
              ? t('view.defaults')
              : t('view.validRange', {
                  start: formatDate(current.timeRange.start, timeZone),
                  end: formatDate(current.timeRange.end, timeZone),
                })}
          </Text>
          <Table withTableBorder data-testid="config-values">
            <Table.Tbody>
              {CONFIG_FIELDS[procedure].map((field) => (
                <Table.Tr key={field.name}>
                  <Table.Th>{t(`field.${field.name}`)}</Table.Th>
                  <Table.Td data-testid={`value-${field.name}`}>
                    <FieldValue field={field} value={current.value[field.name]} />
                  </Table.Td>
                </Table.Tr>
              ))}
              {CONFIG_FIELDS[procedure].length === 0 && (
                <Table.Tr>
                  <Table.Td>{t('view.noFields')}</Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
          {current.comments && <Text>{t('view.comments', { comments: current.comments })}</Text>}
          {current.id !== 0 && (
            <Text size="sm" c="dimmed">
              {t('view.lastModified', {
                at: formatDateTime(current.lastModified, timeZone),
                by: current.lastModifiedBy,
              })}
            </Text>
          )}
        </>
      )}
      <Group>
        {canEdit && (
          <Button component={Link} to="../edit" relative="path" data-testid="config-edit">
            {t('view.edit')}
          </Button>
        )}
        {list.data?.uuid && (
          <Anchor
            component={Link}
            to={`${historyPath}?uuid=${list.data.uuid}&procedure=${procedure}`}
            data-testid="config-history"
          >
            {t('view.history')}
          </Anchor>
        )}
      </Group>
    </Stack>
  );
}

type Values = Record<string, unknown>;

/**
 * The form's values as the schema reads them: a number input holds text while it is typed ("2.");
 * a text that is a number becomes the number.
 */
export function normalised(fields: readonly ConfigField[], values: Values): Values {
  const out: Values = { ...values };
  for (const f of fields) {
    const v = out[f.name];
    if ((f.kind === 'number' || f.kind === 'integer') && typeof v === 'string' && v.trim() !== '' && !isNaN(Number(v)))
      out[f.name] = Number(v);
  }
  return out;
}

/**
 * What a new configuration version is made of, on every configuration form: an input per field,
 * the day it is valid from and a comment.
 */
export function VersionFields(props: {
  fields: readonly ConfigField[];
  values: Record<string, unknown>;
  errors: Record<string, string | undefined>;
  onValues: (values: Record<string, unknown>) => void;
  validFrom: string | null;
  onValidFrom: (day: string | null) => void;
  comments: string;
  onComments: (comments: string) => void;
}) {
  const { t } = useConfigT();
  const { values, errors } = props;
  return (
    <>
      {props.fields.map((field) => (
        <FieldInput
          key={field.name}
          field={field}
          value={values[field.name]}
          error={errors[field.name]}
          onChange={(v) => props.onValues({ ...values, [field.name]: v })}
        />
      ))}
      <DayInput
        label={t('edit.validFrom')}
        value={props.validFrom}
        onChange={props.onValidFrom}
        error={errors['validFrom']}
        required
        data-testid="input-validFrom"
      />
      <Textarea
        label={t('edit.comments')}
        value={props.comments}
        onChange={(e) => props.onComments(e.currentTarget.value)}
        data-testid="input-comments"
      />
    </>
  );
}

/** One input per field of the procedure's descriptor list. */
export function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: ConfigField;
  value: unknown;
  error: string | undefined;
  onChange: (value: unknown) => void;
}) {
  const { t } = useConfigT();
  const label = `${t(`field.${field.name}`)}${field.unit ? ` (${t(`unit.${field.unit}`)})` : ''}`;
  const common = { label, error, 'data-testid': `input-${field.name}` };
  switch (field.kind) {
    case 'boolean':
      return (
        <Switch
          label={label}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
          data-testid={`input-${field.name}`}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          value={typeof value === 'string' ? value : null}
          data={(field.options ?? []).map((o) => ({ value: o, label: t(`option.${o}`, { defaultValue: o }) }))}
          onChange={(v) => onChange(v ?? undefined)}
        />
      );
    case 'text':
      return (
        <TextInput
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    default:
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' || typeof value === 'string' ? value : ''}
          allowDecimal={field.kind === 'number'}
          onChange={(v) => onChange(v === '' ? undefined : v)}
        />
      );
  }
}

/**
 * configuration/edit: a form built from the procedure's field list (contracts CONFIG_FIELDS), a valid
 * from day and comments. The procedure's schema checks it before sending (the §5 aggregation rule
 * shows under its field); the server checks again and its refusals show above the buttons.
 */
export function ConfigEditPage({ procedure, tpa = false, ...screen }: ConfigPageProps) {
  const { t } = useConfigT();
  const timeZone = useTimeZone();
  const navigate = useNavigate();
  const list = useQuery(configListQuery(procedure, tpa));
  const save = useSaveConfig(procedure);
  const [edited, setEdited] = useState<Values | null>(null);
  const [validFrom, setValidFrom] = useState<string | null>(null);
  const [comments, setComments] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const values: Values = edited ?? list.data?.current.value ?? {};

  const submit = () => {
    const value = normalised(CONFIG_FIELDS[procedure], values);
    const parsed = PROCESSING_CONFIG_SCHEMAS[procedure].safeParse(value);
    const next: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[String(issue.path[0] ?? '')] ??= issue.message;
    if (!validFrom) next['validFrom'] = t('edit.validFromRequired');
    setErrors(next);
    if (Object.keys(next).length > 0 || !validFrom) return;
    save.mutate(
      { tpa, validFrom: dayStartInZone(validFrom, timeZone), comments: comments || null, value },
      { onSuccess: () => void navigate('../view', { relative: 'path' }) },
    );
  };

  return (
    <Stack gap="md" maw={560}>
      <PageTitle {...screen} />
      <ApiErrorText error={list.isError ? list.error : null} />
      <VersionFields
        fields={list.data ? CONFIG_FIELDS[procedure] : []}
        values={values}
        errors={errors}
        onValues={setEdited}
        validFrom={validFrom}
        onValidFrom={setValidFrom}
        comments={comments}
        onComments={setComments}
      />
      <ApiErrorText error={save.isError ? save.error : null} />
      <Group>
        <Button onClick={submit} loading={save.isPending} disabled={!list.data} data-testid="config-save">
          {t('edit.save')}
        </Button>
        <Button variant="default" component={Link} to="../view" relative="path">
          {t('edit.cancel')}
        </Button>
      </Group>
    </Stack>
  );
}

const HEADERS = {
  name: 'history.procedure',
  validFrom: 'history.validFrom',
  validTo: 'history.validTo',
  status: 'history.status',
  comments: 'history.comments',
  lastModified: 'history.lastModified',
  lastModifiedBy: 'history.lastModifiedBy',
};

/** processes/segmentshistory?uuid=&procedure=: every version of one configuration, superseded ones marked. */
export function ConfigSegmentsHistoryPage(screen: ScreenProps) {
  const { t, tRoot } = useConfigT();
  const timeZone = useTimeZone();
  const [params] = useSearchParams();
  const uuid = params.get('uuid') ?? '';
  const procedure = configProcedureOf(params.get('procedure') ?? '');
  const versions = useQuery({ ...configVersionsQuery(uuid), enabled: uuid !== '' });
  const fields = procedure ? CONFIG_FIELDS[procedure] : [];

  return (
    <SegmentsHistory
      title={<PageTitle {...screen} />}
      notice={
        uuid === '' ? (
          <Text c="dimmed">{t('history.none')}</Text>
        ) : (
          procedure && <Text>{t('history.intro', { process: tRoot(`processes.${procedure}`) })}</Text>
        )
      }
      segments={versions.data}
      error={versions.isError ? versions.error : null}
      loaded={versions.isSuccess}
      timeZone={timeZone}
      t={t}
      headerKeys={HEADERS}
      extraColumns={fields.map((field) => ({
        header: t(`field.${field.name}`),
        cell: (segment) => <FieldValue field={field} value={segment.attributes[field.name]} />,
      }))}
    />
  );
}
