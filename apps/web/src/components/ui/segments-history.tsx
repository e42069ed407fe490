import { useMemo, type ReactNode } from 'react';
import { Badge, Stack, Table, Text } from '@mantine/core';
import type { Segment } from '@railwatt/contracts';
import { formatDate, formatDateTime } from '../../lib/format';
import type { SummaryTranslate } from './status-error-summary';
import { ApiErrorText } from './api-error';

/** Segments in time order (their start), as every history shows them. */
export const byStart = (a: Segment, b: Segment) => Date.parse(a.timeRange.start) - Date.parse(b.timeRange.start);

/** A column a screen adds after the status (fleet's owner, an area's parent). */
export interface SegmentColumn {
  header: string;
  cell: (segment: Segment) => ReactNode;
}

export interface SegmentsHistoryProps {
  /** The page's h1. */
  title: ReactNode;
  /** What stands under the title: "no entity chosen", or the kit's intro. */
  notice?: ReactNode;
  /** Every version (GET /domain/{type}/versions/{uuid}), in any order. */
  segments: Segment[] | undefined;
  /** The versions query's error, if it failed. */
  error: unknown;
  /** The versions arrived (an empty answer shows "no segments"). */
  loaded: boolean;
  timeZone: string;
  /**
   * Texts from the caller's namespace: 'state.<state>' and 'history.superseded', 'history.empty'
   * (and 'history.active', 'history.yes', 'history.no' with `showActive`) are the same keys in every
   * namespace; the other headers differ and come as `headerKeys`.
   */
  t: SummaryTranslate;
  headerKeys: {
    name: string;
    validFrom: string;
    validTo: string;
    status: string;
    comments: string;
    lastModified: string;
    lastModifiedBy: string;
  };
  /** Shows whether each segment is active (fleet, areas). */
  showActive?: boolean;
  extraColumns?: SegmentColumn[];
  /** Shown between the notice and the table (fleet's timeline). */
  aboveTable?: ReactNode;
  /** Shown under the table (a back link). */
  footer?: ReactNode;
}

/**
 * segmentshistory?uuid=&type=: every segment of one entity, current and superseded (marked), in time
 * order. One screen for fleet, infrastructure and the entity kit; the caller queries the versions and
 * brings its texts and extra columns.
 */
export function SegmentsHistory({
  title,
  notice,
  segments: unsorted,
  error,
  loaded,
  timeZone,
  t,
  headerKeys,
  showActive = false,
  extraColumns = [],
  aboveTable,
  footer,
}: SegmentsHistoryProps) {
  const segments = useMemo(() => [...(unsorted ?? [])].sort(byStart), [unsorted]);
  const columnCount = 7 + (showActive ? 1 : 0) + extraColumns.length;

  return (
    <Stack gap="md">
      {title}
      {notice}
      <ApiErrorText error={error} />
      {aboveTable}
      <Table withTableBorder striped data-testid="segments-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t(headerKeys.name)}</Table.Th>
            <Table.Th>{t(headerKeys.validFrom)}</Table.Th>
            <Table.Th>{t(headerKeys.validTo)}</Table.Th>
            <Table.Th>{t(headerKeys.status)}</Table.Th>
            {showActive && <Table.Th>{t('history.active')}</Table.Th>}
            {extraColumns.map((c) => (
              <Table.Th key={c.header}>{c.header}</Table.Th>
            ))}
            <Table.Th>{t(headerKeys.comments)}</Table.Th>
            <Table.Th>{t(headerKeys.lastModified)}</Table.Th>
            <Table.Th>{t(headerKeys.lastModifiedBy)}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {segments.map((s, i) => (
            // A superseded segment in dimmed text rather than faded (faded, its badge read 3.5:1).
            <Table.Tr key={s.id ?? i} data-testid="segment-row" c={s.supersededAt ? 'dimmed' : undefined}>
              <Table.Td>{s.name}</Table.Td>
              <Table.Td>{formatDate(s.timeRange.start, timeZone)}</Table.Td>
              <Table.Td>{formatDate(s.timeRange.end, timeZone)}</Table.Td>
              <Table.Td>
                {t(`state.${s.state}`, { defaultValue: s.state })}
                {s.supersededAt && (
                  <Badge ml="xs" size="xs" color="gray" variant="outline">
                    {t('history.superseded')}
                  </Badge>
                )}
              </Table.Td>
              {showActive && <Table.Td>{s.active ? t('history.yes') : t('history.no')}</Table.Td>}
              {extraColumns.map((c) => (
                <Table.Td key={c.header}>{c.cell(s)}</Table.Td>
              ))}
              <Table.Td>{s.comments ?? ''}</Table.Td>
              <Table.Td>{formatDateTime(s.lastModified, timeZone)}</Table.Td>
              <Table.Td>{s.lastModifiedBy}</Table.Td>
            </Table.Tr>
          ))}
          {loaded && segments.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columnCount}>
                <Text c="dimmed">{t('history.empty')}</Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      {footer}
    </Stack>
  );
}
