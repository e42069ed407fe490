import { Badge, Group, Progress, Text } from '@mantine/core';
import { type ProcedureResult, type ProcedureResultStatus, type Severity } from '@railwatt/contracts';
import { useTranslation } from 'react-i18next';
import { eventCodeLabel } from '../../../lib/event-code';
import { formatDate, formatNumber } from '../../../lib/format';
import { resultStatusColor } from '../../../lib/result-status';
import { isUnderWay } from '../api/processing-queries';
import { useMonitorT } from '../hooks/use-monitor-t';

const BADGE_STYLES = {
  root: { minWidth: 'max-content', overflow: 'visible' },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

/** A procedure result's status with its colour (green success, red failure, blue running ...). */
export function ResultStatusBadge({ status }: { status: ProcedureResultStatus }) {
  const { t } = useMonitorT();
  return (
    <Badge
      variant="light"
      color={resultStatusColor(status)}
      styles={BADGE_STYLES}
      data-testid="result-status"
      data-status={status}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}

const SEVERITY_COLORS: Record<Severity, string> = { HIGH: 'red', MEDIUM: 'orange', LOW: 'gray' };

export function SeverityBadge({ severity }: { severity: Severity }) {
  const { t } = useMonitorT();
  return (
    <Badge variant="light" color={SEVERITY_COLORS[severity]} styles={BADGE_STYLES} data-testid="event-severity">
      {t(`severity.${severity}`)}
    </Badge>
  );
}

/**
 * The progress of a run under way as a bar and the words a user reads: "12 of 31 days, 40,000
 * records" (the finished area days of all, and the records they processed when the procedure counts
 * them); a run not started yet says it waits; a result without counts (older runs) its percentage.
 */
export function ResultProgress({
  result,
}: {
  result: Pick<ProcedureResult, 'status' | 'progress' | 'progressCounts'>;
}) {
  const { t, i18n } = useMonitorT();
  if (!isUnderWay(result)) return null;
  const counts = result.progressCounts ?? null;
  const fraction = counts && counts.total > 0 ? counts.done / counts.total : result.progress;
  const percent = Math.round(fraction * 100);
  const number = (n: number) => formatNumber(n, i18n.language);
  const words = counts
    ? [
        t('result.daysOf', { done: number(counts.done), total: number(counts.total) }),
        ...(counts.records !== null ? [t('result.records', { records: number(counts.records) })] : []),
      ].join(', ')
    : result.status === 'initial'
      ? t('result.waiting')
      : `${percent} %`;
  return (
    <Group gap={6} wrap="nowrap" data-testid="result-progress">
      <Progress value={percent} w={90} animated aria-label={t('result.progress')} aria-valuetext={words} />
      <Text size="xs" data-testid="result-progress-text">
        {words}
      </Text>
    </Group>
  );
}

/**
 * A run's period [start, end) as its first and last day in the area's zone ("01.01.2024 – 31.01.2024").
 * The end is exclusive, so the last day is the day of the instant just before it.
 */
export function periodText(result: Pick<ProcedureResult, 'periodStart' | 'periodEnd'>, timeZone: string): string {
  const lastInstant = new Date(Date.parse(result.periodEnd) - 1).toISOString();
  return `${formatDate(result.periodStart, timeZone)} – ${formatDate(lastInstant, timeZone)}`;
}

/** The readable label of an event code in the user's language (lib/event-code.ts). */
export function useEventCodeLabel() {
  const { t } = useTranslation();
  return (code: string) => eventCodeLabel(code, t);
}

/** An event code as its readable label (the code itself in the title for slugs). */
export function EventCode({ code }: { code: string }) {
  const label = useEventCodeLabel()(code);
  const numeric = /^\d+$/.test(code);
  return (
    <Text size="sm" data-testid="event-code" title={numeric ? undefined : code}>
      {numeric && label.startsWith(`${code} `) ? (
        <>
          <Text span fw={600} size="sm">
            {code}
          </Text>
          {label.slice(code.length)}
        </>
      ) : (
        label
      )}
    </Text>
  );
}

/** A process's name as the menu shows it (routes' processes.<name>). */
export function useProcessName() {
  const { t } = useTranslation();
  return (name: string) => t(`processes.${name}`, { defaultValue: name });
}
