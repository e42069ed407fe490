import { useMemo } from 'react';
import { Alert, Badge, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { policyAdmits, POLICIES, SETTLEMENT_THROTTLE_MS, type ProcedureResult } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDateTime } from '../../../lib/format';
import { resultStatusColor } from '../../../lib/result-status';
import type { ScreenProps } from '../../../lib/routes';
import { useModalStore } from '../../../lib/stores/modal-store';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useAreaName } from '../../../lib/use-format';
import { useUrlSearch } from '../../../lib/use-url-search';
import {
  pricesApprovedQuery,
  settlementKeys,
  settlementResultsQuery,
  useApprovePrices,
  useRunSettlement,
  type SettlementMonth,
} from '../api/settlement-queries';
import {
  monthRange,
  monthSearchShape,
  monthText,
  useSettlementMonth,
  useSettlementZone,
} from '../hooks/settlement-month';
import { useSettlementT } from '../hooks/use-settlement-t';
import { useThrottledKey } from '../hooks/use-throttled-key';
import { ResultMessage } from './folded-texts';
import { approvedBy, SettlementActions, showDone } from './settlement-actions';
import { SettlementLinesTable } from './settlement-lines-table';
import { SettlementWarnings, shownMessage } from './settlement-warnings';
import { SettlementMonthPicker } from './settlement-month-picker';

/** The screen's state in the URL: the month and the chosen result. */
const searchSchema = z.object({
  ...monthSearchShape,
  result: z.coerce.number().int().positive().optional().catch(undefined),
});

/**
 * product.md §9 "Settlement option label: id, end time dd.MM.yyyy HH:mm, status": the end is the
 * result's execute end time in the area's zone (empty while it runs), the status in the user's
 * language (issue 18 item 2: statuses translated).
 */
export const resultLabel = (result: ProcedureResult, timeZone: string, status: string): string =>
  `${result.id}, ${formatDateTime(result.executeEndTime, timeZone)}, ${status}`;

const monthKey = ({ year, month }: SettlementMonth) => `${year}-${month}`;
const monthOfKey = (key: string): SettlementMonth => {
  const [year, month] = key.split('-').map(Number) as [number, number];
  return { year, month };
};

/**
 * /settlementandverification/[tpa-]settlementprocess (product.md §2, §4): the month's settlement
 * results, one chosen, its lines with totals, and for the process runners approve, unapprove,
 * invalidate and set to failure (the audit roles and the consumer read only). The page warns when
 * the month's prices and supply are not approved, and runs the settlement for the month (a new version).
 * The tpa- twin (netherlands only) lists and runs the TPA settlement's versions, a chain of versions
 * and approvals of its own (the run's tpa option); the plain page lists the others.
 */
export function SettlementProcessPage({ tpa = false, ...props }: ScreenProps & { tpa?: boolean }) {
  const { t } = useSettlementT();
  const timeZone = useSettlementZone();
  const roles = useMarketStore((s) => s.rolesInArea);
  const area = useMarketStore((s) => s.area?.kind ?? null);
  const mayRun = policyAdmits(POLICIES.processingRun, roles, area);
  const { search, update } = useUrlSearch(searchSchema);
  const month = useSettlementMonth(search, timeZone);
  // calls.md §9 "settlement results requests throttled to one per second": a month chosen within a
  // second of the last lookup's month is asked for when the second is over (the latest month wins).
  const askedKey = useThrottledKey(monthKey(month), SETTLEMENT_THROTTLE_MS);
  const listQuery = useMemo(() => {
    const asked = monthOfKey(askedKey);
    return { ...asked, range: monthRange(asked, timeZone), timeZone, tpa };
  }, [askedKey, timeZone, tpa]);
  const results = useQuery(settlementResultsQuery(listQuery));
  const run = useRunSettlement(settlementResultsQuery(listQuery).queryKey);
  const prices = useQuery(pricesApprovedQuery(month, monthRange(month, timeZone), timeZone));
  const approvePrices = useApprovePrices(month, monthRange(month, timeZone), timeZone);
  const openModal = useModalStore((s) => s.open);
  const areaName = useAreaName();
  // Approving prices and supply asks first, naming the month and area, and then says what was
  // approved and by whom (issue 18 item 4).
  const askApprovePrices = () => {
    const scope = { month: monthText(month), area: areaName };
    openModal({
      type: 'userConfirmation',
      message: t('process.approvePricesQuestion', scope),
      yesAction: () =>
        approvePrices.mutate(undefined, {
          onSuccess: (approved) => {
            if (approved)
              showDone(
                t('process.pricesApproved', {
                  ...scope,
                  id: approved.id,
                  user: approvedBy(approved.answer, approved.id) ?? t('process.someone'),
                }),
              );
          },
        }),
    });
  };

  const list = useMemo(() => results.data?.content ?? [], [results.data]);
  // The list is the shown month's (not the previous month's while the throttle or the answer is awaited).
  const current = results.data !== undefined && !results.isPlaceholderData && askedKey === monthKey(month);
  const selected = list.find((r) => r.id === search.result) ?? list[0] ?? null;
  const options = useMemo(
    () => list.map((r) => ({ value: String(r.id), label: resultLabel(r, timeZone, t(`status.${r.status}`)) })),
    [list, timeZone, t],
  );

  return (
    <Stack gap="sm">
      <PageTitle {...props} />
      <Group align="flex-end" gap="sm">
        <SettlementMonthPicker
          value={month}
          onChange={(next) => update({ year: next.year, month: next.month, result: undefined })}
        />
        <Select
          label={t('process.result')}
          placeholder={t('process.noResults')}
          data={options}
          value={selected ? String(selected.id) : null}
          onChange={(value) => update({ result: value })}
          allowDeselect={false}
          disabled={options.length === 0}
          w={360}
          data-testid="settlement-result"
        />
        {mayRun && (
          <Button
            variant="light"
            data-testid="run-settlement"
            loading={run.isPending}
            onClick={() => run.mutate({ range: monthRange(month, timeZone), timeZone, tpa })}
          >
            {t('process.runSettlement')}
          </Button>
        )}
        <Text size="xs" c="dimmed">
          {t('zone', { zone: timeZone })}
        </Text>
      </Group>
      {prices.data === false && (
        <Alert color="yellow" variant="light" data-testid="prices-not-approved">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{t('process.pricesNotApproved')}</Text>
            {mayRun && (
              <Button
                size="xs"
                variant="light"
                color="yellow"
                loading={approvePrices.isPending}
                onClick={askApprovePrices}
                data-testid="approve-prices"
              >
                {t('process.approvePrices')}
              </Button>
            )}
          </Group>
          {approvePrices.data === null && (
            <Text size="sm" c="red.8" data-testid="no-prices-to-approve">
              {t('process.noPricesToApprove')}
            </Text>
          )}
          <ApiErrorText error={approvePrices.error} />
        </Alert>
      )}
      <ApiErrorText error={run.error} />
      <ApiErrorText error={results.error} />
      <ApiErrorText error={prices.error} />
      {current && list.length === 0 && (
        <Text c="dimmed" data-testid="settlement-no-results">
          {t('process.noResults')}
        </Text>
      )}
      {selected && (
        <Paper withBorder p="sm" data-testid="settlement-result-panel" data-result-id={selected.id}>
          <Stack gap="xs">
            <Group gap="sm">
              <Title order={2}>{t('process.resultTitle', { id: selected.id })}</Title>
              <Badge
                variant="light"
                color={resultStatusColor(selected.status)}
                data-testid="settlement-status"
                data-status={selected.status}
              >
                {t(`status.${selected.status}`)}
              </Badge>
            </Group>
            <Text size="sm">
              {t('process.ran', {
                start: formatDateTime(selected.executeStartTime, timeZone),
                end: formatDateTime(selected.executeEndTime, timeZone),
                user: selected.username,
              })}
            </Text>
            {shownMessage(selected) && <ResultMessage message={shownMessage(selected)!} />}
            {mayRun && (
              <SettlementActions
                key={selected.id}
                result={selected}
                listKey={settlementKeys.resultList(listQuery)}
                disabled={!current}
                timeZone={timeZone}
              />
            )}
          </Stack>
        </Paper>
      )}
      {selected && (
        <>
          <SettlementWarnings result={selected} range={listQuery.range} timeZone={timeZone} mayRun={mayRun} />
          <Title order={2}>{t('lines.title')}</Title>
          <SettlementLinesTable procedureResultId={selected.id} status={selected.status} />
        </>
      )}
    </Stack>
  );
}
