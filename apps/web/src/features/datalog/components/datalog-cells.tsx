import { Badge, Table, Text } from '@mantine/core';
import type { DataLogEntry } from '@railwatt/contracts';
import { formatDateTime } from '../../../lib/format';
import { useFormat } from '../../../lib/use-format';
import { useDataLogT } from '../hooks/use-datalog-t';
import { fileNameLines, statusColor } from './file-name';

const BADGE_STYLES = {
  root: { minWidth: 'max-content', overflow: 'visible' },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

/** A status with its colour (red for REJECTED and ERROR) and its label `datalog.status.<status lowercased>`. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useDataLogT();
  return (
    <Badge variant="light" color={statusColor(status)} styles={BADGE_STYLES} data-testid="datalog-status">
      {t(`status.${status.toLowerCase()}`, { defaultValue: status })}
    </Badge>
  );
}

/** A file name, on lines of 32 characters when it is longer than 39 (calls.md §9). */
export function FileName({ name }: { name: string | null }) {
  const lines = fileNameLines(name);
  return (
    <Text size="sm" data-testid="datalog-file-name" style={{ wordBreak: 'normal' }}>
      {lines.map((line, i) => (
        <span key={i}>
          {i > 0 && <br />}
          {line}
        </span>
      ))}
    </Text>
  );
}

/** The time series a file carried (calls.md §3); the values count is hidden for some types (§4). */
export function TimeSeriesDetails({
  entry,
  showValuesCount,
  timeZone,
}: {
  entry: DataLogEntry;
  showValuesCount: boolean;
  timeZone: string;
}) {
  const { t, tRoot } = useDataLogT();
  const f = useFormat();
  // A type's key (cebd_active_energy_consumed) as words in the user's language, as the settlement page names it.
  const typeWords = (type: string | null) => {
    if (!type) return '';
    const words = tRoot(`settlement.seriesTypes.${type}`, { defaultValue: type.replace(/_/g, ' ') });
    return words.charAt(0).toUpperCase() + words.slice(1);
  };
  if (entry.messageLogTimeSeries.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('details.none')}
      </Text>
    );
  return (
    <Table fz="sm" data-testid="datalog-time-series">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('details.startTime')}</Table.Th>
          <Table.Th>{t('details.endTime')}</Table.Th>
          <Table.Th>{t('details.timeSeriesType')}</Table.Th>
          <Table.Th>{t('details.entityIdentifier')}</Table.Th>
          {showValuesCount && <Table.Th>{t('details.valuesCount')}</Table.Th>}
          <Table.Th>{t('details.message')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entry.messageLogTimeSeries.map((series, i) => (
          <Table.Tr key={i}>
            <Table.Td>{formatDateTime(series.startTime, timeZone)}</Table.Td>
            <Table.Td>{formatDateTime(series.endTime, timeZone)}</Table.Td>
            <Table.Td title={series.timeSeriesType ?? undefined}>{typeWords(series.timeSeriesType)}</Table.Td>
            <Table.Td>{series.entityIdentifier ?? ''}</Table.Td>
            {showValuesCount && <Table.Td>{f.number(series.valuesCount)}</Table.Td>}
            <Table.Td>{series.message ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
