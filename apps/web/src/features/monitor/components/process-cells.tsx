import { Badge, Group, Progress, Text } from '@mantine/core';
import { eventCodeText, type ProcedureResult, type ProcedureResultStatus, type Severity } from '@railwatt/contracts';
import { useTranslation } from 'react-i18next';
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

/**
 * Words for a code without a text of its own: a slug ("no-contract-in-price-area", "cebd_active")
 * read as "No contract in price area"; a number stays as it is.
 */
export const slugWords = (code: string): string => {
  if (!/[a-z]/i.test(code)) return code;
  const words = code.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * The readable label of an event code: the translated text of a known code (monitor.eventCode.<code>),
 * else the contracts' English text, else the slug as words. Numeric codes keep their number in front
 * ("58 Value outside expected limits"): the catalogue and files name them by number.
 */
export function useEventCodeLabel() {
  const { t } = useMonitorT();
  return (code: string) => {
    const known = t(`eventCode.${code}`, { defaultValue: eventCodeText(code) });
    const text = known !== code ? known : slugWords(code);
    if (/^\d+$/.test(code)) return text !== code ? `${code} ${text}` : code;
    return text;
  };
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
