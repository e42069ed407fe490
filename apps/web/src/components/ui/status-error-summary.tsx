import { Button, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { StatusChangeItem } from '@railwatt/contracts';
import { formatDate } from '../../lib/format';
import type { StatusSummary } from '../../lib/stores/status-summary';

/** The caller's translate function, bound to its namespace (fleet, areas, entityKit). */
export type SummaryTranslate = (key: string, options?: Record<string, unknown>) => string;

export interface StatusErrorSummaryProps {
  /** The page's h1 (the caller's page title). */
  title: ReactNode;
  /** The caller's store's summary; null shows "nothing to show". */
  summary: StatusSummary | null;
  /** Where "back" goes when there is no summary (the overview). */
  overviewPath: string;
  timeZone: string;
  /**
   * Texts from the caller's namespace: 'errorsummary.*' (nothing, intro, failed, succeeded,
   * none_succeeded, error, back), 'action.<action>' and 'state.<status>' are the same keys in every
   * namespace; the column headers differ and come as `columnKeys`.
   */
  t: SummaryTranslate;
  columnKeys: { name: string; validFrom: string; validTo: string; status: string };
  /** Prefix of the tables' test ids ('errorsummary' -> 'errorsummary-failed'). */
  testIdPrefix?: string;
}

/**
 * .../overview/errorsummary: what a partly failed status change did and did not save (product.md §4).
 * One screen for every overview with a status change; the caller brings its store, texts and back link.
 */
export function StatusErrorSummary({
  title,
  summary,
  overviewPath,
  timeZone,
  t,
  columnKeys,
  testIdPrefix = 'errorsummary',
}: StatusErrorSummaryProps) {
  const table = { t, columnKeys, timeZone };
  return (
    <Stack gap="md">
      {title}
      {!summary ? (
        <Text c="dimmed">{t('errorsummary.nothing')}</Text>
      ) : (
        <>
          <Text>{t('errorsummary.intro', { action: t(`action.${summary.action}`) })}</Text>
          <Title order={2}>{t('errorsummary.failed', { count: summary.failed.length })}</Title>
          <SummaryTable {...table} items={summary.failed} withError testId={`${testIdPrefix}-failed`} />
          <Title order={2}>{t('errorsummary.succeeded', { count: summary.succeeded.length })}</Title>
          {summary.succeeded.length > 0 ? (
            <SummaryTable {...table} items={summary.succeeded} testId={`${testIdPrefix}-succeeded`} />
          ) : (
            <Text c="dimmed">{t('errorsummary.none_succeeded')}</Text>
          )}
        </>
      )}
      <div>
        <Button component={Link} to={summary?.parentPage ?? overviewPath} variant="outline">
          {t('errorsummary.back')}
        </Button>
      </div>
    </Stack>
  );
}

function SummaryTable({
  items,
  t,
  columnKeys,
  timeZone,
  withError,
  testId,
}: Pick<StatusErrorSummaryProps, 't' | 'columnKeys' | 'timeZone'> & {
  items: StatusChangeItem[];
  withError?: boolean;
  testId: string;
}) {
  return (
    <Table withTableBorder data-testid={testId}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t(columnKeys.name)}</Table.Th>
          <Table.Th>{t(columnKeys.validFrom)}</Table.Th>
          <Table.Th>{t(columnKeys.validTo)}</Table.Th>
          <Table.Th>{t(columnKeys.status)}</Table.Th>
          {withError && <Table.Th>{t('errorsummary.error')}</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((item) => (
          <Table.Tr key={item.uuid}>
            <Table.Td>{item.name}</Table.Td>
            <Table.Td>{formatDate(item.validFrom, timeZone)}</Table.Td>
            <Table.Td>{formatDate(item.validTo, timeZone)}</Table.Td>
            <Table.Td>{t(`state.${item.status}`, { defaultValue: item.status })}</Table.Td>
            {withError && <Table.Td c="red">{item.error}</Table.Td>}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
