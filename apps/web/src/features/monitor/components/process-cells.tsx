import { Badge, Group, Progress, Text } from '@mantine/core';
import { eventCodeText, type ProcedureResult, type ProcedureResultStatus, type Severity } from '@railwatt/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
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

/** The progress of a run under way (finished area days of all), as a bar with its percentage. */
export function ResultProgress({ result }: { result: Pick<ProcedureResult, 'status' | 'progress'> }) {
  const { t } = useMonitorT();
  if (!isUnderWay(result)) return null;
  const percent = Math.round(result.progress * 100);
  return (
    <Group gap={6} wrap="nowrap" data-testid="result-progress">
      <Progress value={percent} w={90} animated aria-label={t('result.progress')} />
      <Text size="xs">{percent} %</Text>
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
 * An event code with its text: the translated text of a known code (monitor.eventCode.<code>), else
 * the contracts' English text, else the code alone.
 */
export function EventCode({ code }: { code: string }) {
  const { t } = useMonitorT();
  const text = t(`eventCode.${code}`, { defaultValue: eventCodeText(code) });
  return (
    <Text size="sm" data-testid="event-code">
      <Text span fw={600} size="sm">
        {code}
      </Text>
      {text !== code ? ` ${text}` : ''}
    </Text>
  );
}

/** A process's name as the menu shows it (routes' processes.<name>). */
export function useProcessName() {
  const { t } = useTranslation();
  return (name: string) => t(`processes.${name}`, { defaultValue: name });
}
