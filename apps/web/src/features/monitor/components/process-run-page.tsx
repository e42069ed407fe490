import { useMemo, useState } from 'react';
import { Anchor, Button, Group, MultiSelect, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { MonthPickerInput } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { z } from 'zod';
import {
  dayInZone,
  dayStartInZone,
  DEFAULT_METERED_ENERGY_AGGREGATION,
  ENTITY_KINDS,
  METERED_ENERGY_AGGREGATIONS,
  policyAdmits,
  POLICIES,
  type EntityRef,
  type MeteredEnergyAggregation,
  type ProcedureName,
  type ProcedureResult,
} from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { minimalListQuery } from '../../../components/ui/entity-kit/entity-api';
import { DayInput } from '../../../components/ui/set-status-dialog';
import { formatDateTime } from '../../../lib/format';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useUrlSearch } from '../../../lib/use-url-search';
import { isUnderWay, procedureResultQuery, useRunProcedure } from '../api/processing-queries';
import { daysInZone, runEventsSearchFields } from '../hooks/use-monitor-search';
import { useMonitorT } from '../hooks/use-monitor-t';
import { RESULT_VIEW_PATH } from './events-table';
import { MonitorPageTitle, NotForRole, useMonitorZone } from './monitor-page-title';
import { periodText, ResultProgress, ResultStatusBadge } from './process-cells';
import { RunEvents, type RunEventsState } from './run-events';
import { processPath } from './process-log-page';

const pad = (n: number) => String(n).padStart(2, '0');

/** The first and last day of the month `first` ('YYYY-MM-01') starts. */
export function monthDays(first: string): { from: string; to: string } {
  const [y, m] = first.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${y}-${pad(m)}-01`, to: `${y}-${pad(m)}-${pad(last)}` };
}

/** calls.md §9: the initial observation month is the previous month (December of last year in January). */
export function previousMonth(today: string): string {
  const [y, m] = today.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12-01` : `${y}-${pad(m - 1)}-01`;
}

/** The run this page follows, kept in the URL so a reload (or a shared link) follows it still. */
const runSearchSchema = z.object({
  result: z.coerce.number().int().positive().optional().catch(undefined),
  ...runEventsSearchFields,
});

function useRefOptions(kind: 'tractionunit' | 'consumptionpoint') {
  const list = useQuery(minimalListQuery(kind));
  return (list.data ?? [])
    .map((e) => ({ value: e.uuid, label: e.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * /monitor/processes/<procedure>/run (issue 9 item 7): the period (a month, or from/to days in the
 * area's zone) and the optional limits (traction units, consumption points, a reference day) of one
 * run, and for metered-energy-aggregation its FIRST or SECOND aggregation (SECOND preselected);
 * submitted with the screen's zone. The run is then followed in place: its status and progress
 * every second until it ends, then its outcome and events, with links to the log and its result view.
 * A run of the same period under way is refused by the server in the spec's words (process_already_running).
 */
export function ProcessRunPage({ procedure, ...props }: Partial<ScreenProps> & { procedure: ProcedureName }) {
  const { t } = useMonitorT();
  const roles = useMarketStore((s) => s.rolesInArea);
  const area = useMarketStore((s) => s.area?.kind ?? null);
  const timeZone = useMonitorZone();
  const mayRun = policyAdmits(POLICIES.processingRun, roles, area);
  const { search, update } = useUrlSearch(runSearchSchema);
  const initial = useMemo(() => monthDays(previousMonth(dayInZone(new Date(), timeZone))), [timeZone]);
  const [month, setMonth] = useState<string | null>(initial.from);
  const [from, setFrom] = useState<string | null>(initial.from);
  const [to, setTo] = useState<string | null>(initial.to);
  const [units, setUnits] = useState<string[]>([]);
  const [points, setPoints] = useState<string[]>([]);
  const [refDay, setRefDay] = useState<string | null>(null);
  // metered-energy-aggregation's option (calls.md §7): the second aggregation unless chosen otherwise.
  const aggregates = procedure === 'metered-energy-aggregation';
  const [aggregation, setAggregation] = useState<MeteredEnergyAggregation>(DEFAULT_METERED_ENERGY_AGGREGATION);
  const unitOptions = useRefOptions('tractionunit');
  const pointOptions = useRefOptions('consumptionpoint');
  const run = useRunProcedure(procedure, timeZone);

  if (!mayRun) return <NotForRole screen={props} fallbackKey="run.title" />;

  const chooseMonth = (value: string | null) => {
    setMonth(value);
    if (!value) return;
    const days = monthDays(value.slice(0, 10));
    setFrom(days.from);
    setTo(days.to);
  };
  const ordered = Boolean(from && to && from <= to);
  const submit = () => {
    const timeRange = daysInZone(from ?? undefined, to ?? undefined, timeZone);
    if (!timeRange || !ordered) return;
    const refs: EntityRef[] = [
      ...units.map((uuid) => ({ uuid, type: ENTITY_KINDS.tractionunit })),
      ...points.map((uuid) => ({ uuid, type: ENTITY_KINDS.consumptionpoint })),
    ];
    run.mutate(
      {
        timeRange,
        refs,
        ...(refDay ? { refTime: dayStartInZone(refDay, timeZone) } : {}),
        ...(aggregates ? { aggregation } : {}),
      },
      {
        onSuccess: (result) => {
          update({ result: result.id, page: 1, codes: undefined, severities: undefined });
          // A short notice: the run's progress follows below (STYLE.md §17, dialogs for questions and errors).
          notifications.show({ color: 'green', message: t('run.started', { id: result.id }) });
        },
      },
    );
  };

  return (
    <Stack gap="sm">
      <MonitorPageTitle screen={props} fallbackKey="run.title" />
      <Paper withBorder p="sm">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="xs">
            <MonthPickerInput
              label={t('run.month')}
              value={month}
              onChange={chooseMonth}
              valueFormat="MM.YYYY"
              minDate="1970-01-01"
              maxDate="2069-12-31"
              data-testid="run-month"
            />
            <DayInput label={t('run.from')} value={from} onChange={setFrom} required data-testid="run-from" />
            <DayInput
              label={t('run.to')}
              value={to}
              onChange={setTo}
              required
              error={from && to && !ordered ? t('run.order') : undefined}
              data-testid="run-to"
            />
            <MultiSelect
              label={t('run.tractionUnits')}
              searchable
              limit={100}
              nothingFoundMessage={t('noOptions')}
              data={unitOptions}
              value={units}
              onChange={setUnits}
            />
            <MultiSelect
              label={t('run.consumptionPoints')}
              searchable
              limit={100}
              nothingFoundMessage={t('noOptions')}
              data={pointOptions}
              value={points}
              onChange={setPoints}
            />
            <DayInput label={t('run.refTime')} value={refDay} onChange={setRefDay} clearable />
            {aggregates && (
              <Select
                label={t('run.aggregation')}
                data={METERED_ENERGY_AGGREGATIONS.map((value) => ({
                  value,
                  label: t(`run.aggregationOption.${value}`),
                }))}
                value={aggregation}
                onChange={(value) => value && setAggregation(value as MeteredEnergyAggregation)}
                allowDeselect={false}
                data-testid="run-aggregation"
              />
            )}
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt="xs">
            {t('run.zone', { zone: timeZone })}
          </Text>
          <Group justify="flex-end" mt="sm">
            <Anchor component={Link} to={processPath(procedure, 'log')} size="sm">
              {t('run.toLog')}
            </Anchor>
            <Button type="submit" loading={run.isPending} disabled={!ordered} data-testid="run-submit">
              {t('run.submit')}
            </Button>
          </Group>
        </form>
      </Paper>
      <ApiErrorText error={run.error} />
      {search.result && (
        <RunProgress
          key={search.result}
          id={search.result}
          procedure={procedure}
          timeZone={timeZone}
          events={search}
          onEvents={update}
        />
      )}
    </Stack>
  );
}

/** The followed run: status and progress while under way, then its outcome and its events. */
function RunProgress({
  id,
  procedure,
  timeZone,
  events,
  onEvents,
}: {
  id: number;
  procedure: ProcedureName;
  timeZone: string;
  events: RunEventsState;
  onEvents: React.ComponentProps<typeof RunEvents>['onChange'];
}) {
  const { t } = useMonitorT();
  const result = useQuery(procedureResultQuery(id, timeZone));
  const run = result.data;
  const finished = Boolean(run && !isUnderWay(run));
  return (
    <Paper withBorder p="sm" data-testid="run-progress">
      <Title order={3} mb="xs">
        {t('run.followed', { id })}
      </Title>
      <ApiErrorText error={result.error} />
      {run && <RunSummary result={run} timeZone={timeZone} />}
      {run === null && <Text>{t('result.notFound')}</Text>}
      {finished && (
        <Stack gap="xs" mt="sm">
          <Group gap="md">
            <Anchor component={Link} to={processPath(procedure, 'log')} data-testid="run-log-link">
              {t('run.toLog')}
            </Anchor>
            <Anchor component={Link} to={`${RESULT_VIEW_PATH}?id=${id}`} data-testid="run-result-link">
              {t('log.result')}
            </Anchor>
          </Group>
          <RunEvents id={id} timeZone={timeZone} state={events} onChange={onEvents} />
        </Stack>
      )}
    </Paper>
  );
}

/** A result's fields as label and value lines. */
export function RunSummary({ result, timeZone }: { result: ProcedureResult; timeZone: string }) {
  const { t } = useMonitorT();
  const line = (label: string, value: React.ReactNode, testId?: string) => (
    <Group gap="xs" wrap="nowrap" data-testid={testId}>
      <Text size="sm" fw={600} w={160}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {value}
      </Text>
    </Group>
  );
  return (
    <Stack gap={4}>
      {line(t('result.status'), <ResultStatusBadge status={result.status} />)}
      {isUnderWay(result) && line(t('result.progress'), <ResultProgress result={result} />)}
      {line(t('result.period'), periodText(result, timeZone), 'result-period')}
      {line(t('result.start'), formatDateTime(result.executeStartTime, timeZone))}
      {line(t('result.end'), formatDateTime(result.executeEndTime, timeZone))}
      {line(t('result.user'), result.username)}
      {result.message && line(t('result.message'), result.message, 'result-message')}
    </Stack>
  );
}
