import { useMemo } from 'react';
import { Paper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { toEntityKind, type Segment } from '@railwatt/contracts';
import { byStart, SegmentsHistory } from '../../../components/ui/segments-history';
import { organisationsQuery, versionsQuery } from '../api/fleet-queries';
import { useFleetContext } from '../hooks/use-fleet-context';
import { useFleetT } from '../hooks/use-fleet-t';
import { formatDate } from '../../../lib/format';
import type { ScreenProps } from '../../../lib/routes';
import { FleetPageTitle } from './fleet-page-title';

const OPEN_END_YEAR = 2070;
const PALETTE = ['#228be6', '#40c057', '#fab005', '#7950f2', '#fd7e14', '#15aabf', '#e64980', '#82c91e'];

const HEADERS = {
  name: 'history.name',
  validFrom: 'entry.valid_from',
  validTo: 'entry.valid_to',
  status: 'history.state',
  comments: 'history.comments',
  lastModified: 'history.last_modified',
  lastModifiedBy: 'history.last_modified_by',
};

const ownerOf = (segment: Segment): string | null =>
  typeof segment.attributes.owner === 'string' ? segment.attributes.owner : null;

/** /fleet/segmentshistory?uuid=&type=: every segment of one entity as a table and a timeline. */
export function SegmentsHistoryPage(props: Partial<ScreenProps>) {
  const { t } = useFleetT();
  const { timeZone } = useFleetContext();
  const [params] = useSearchParams();
  const uuid = params.get('uuid') ?? '';
  const kind = toEntityKind(params.get('type')) ?? 'tractionunit';

  const versions = useQuery({ ...versionsQuery(kind, uuid), enabled: uuid !== '' });
  const organisations = useQuery(organisationsQuery());
  const ownerName = useMemo(() => {
    const names = new Map((organisations.data ?? []).map((o) => [o.uuid, o.name]));
    return (ref: string | null) => (ref ? (names.get(ref) ?? ref) : '');
  }, [organisations.data]);
  const current = useMemo(
    () => [...(versions.data ?? [])].sort(byStart).filter((s) => !s.supersededAt),
    [versions.data],
  );

  return (
    <SegmentsHistory
      title={<FleetPageTitle screen={props} fallbackKey="history.title" />}
      notice={uuid === '' && <Text c="dimmed">{t('history.no_entity')}</Text>}
      segments={versions.data}
      error={versions.isError ? versions.error : null}
      loaded={versions.isSuccess}
      timeZone={timeZone}
      t={t}
      headerKeys={HEADERS}
      showActive
      extraColumns={[{ header: t('history.owner'), cell: (s) => ownerName(ownerOf(s)) }]}
      aboveTable={
        current.length > 0 && (
          <Paper withBorder p="sm">
            <Title order={2} size="h4" mb="xs">
              {t('history.timeline')}
            </Title>
            <SegmentTimeline segments={current} ownerName={ownerName} timeZone={timeZone} />
          </Paper>
        )
      }
    />
  );
}

/**
 * Bars along time, one lane per owner, so an owner change reads as a bar ending and another
 * starting. Open ends (2070) are drawn to a little after now and marked with an arrow.
 */
export function SegmentTimeline({
  segments,
  ownerName,
  timeZone,
}: {
  segments: Segment[];
  ownerName: (ref: string | null) => string;
  timeZone: string;
}) {
  const { t } = useFleetT();
  const width = 900;
  const laneHeight = 28;
  const labelWidth = 180;
  const now = Date.now();
  const starts = segments.map((s) => Date.parse(s.timeRange.start));
  const ends = segments.map((s) => Date.parse(s.timeRange.end));
  const isOpen = (end: number) => new Date(end).getUTCFullYear() >= OPEN_END_YEAR;
  const closedEnds = ends.filter((e) => !isOpen(e));
  const min = Math.min(...starts);
  const lastKnown = Math.max(now, ...starts, ...closedEnds);
  const max = lastKnown + Math.max((lastKnown - min) * 0.08, 30 * 86_400_000);
  const x = (time: number) => labelWidth + ((Math.min(time, max) - min) / (max - min || 1)) * (width - labelWidth - 10);

  const owners = [...new Set(segments.map((s) => ownerOf(s) ?? ''))];
  const height = owners.length * laneHeight + 24;

  return (
    <svg
      role="img"
      aria-label={t('history.timeline')}
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      data-testid="segments-timeline"
    >
      {owners.map((owner, lane) => (
        <text key={owner} x={4} y={lane * laneHeight + 18} fontSize={12}>
          {ownerName(owner || null) || t('history.no_owner')}
        </text>
      ))}
      {segments.map((s, i) => {
        const lane = owners.indexOf(ownerOf(s) ?? '');
        const start = Date.parse(s.timeRange.start);
        const end = Date.parse(s.timeRange.end);
        const x1 = x(start);
        const x2 = Math.max(x(end), x1 + 2);
        const color = PALETTE[lane % PALETTE.length];
        return (
          <g key={s.id ?? i} data-testid="timeline-bar">
            <title>
              {`${ownerName(ownerOf(s))}: ${formatDate(s.timeRange.start, timeZone)} - ${
                formatDate(s.timeRange.end, timeZone) || '…'
              } (${s.state})`}
            </title>
            <rect
              x={x1}
              y={lane * laneHeight + 6}
              width={x2 - x1}
              height={laneHeight - 10}
              rx={3}
              fill={color}
              opacity={s.active ? 0.9 : 0.4}
            />
            {isOpen(end) && (
              <text x={x2 - 12} y={lane * laneHeight + 22} fontSize={12} fill="#fff">
                →
              </text>
            )}
          </g>
        );
      })}
      <line x1={x(now)} x2={x(now)} y1={0} y2={height - 18} stroke="#fa5252" strokeDasharray="4 3" />
      <text x={x(min)} y={height - 4} fontSize={11}>
        {formatDate(new Date(min).toISOString(), timeZone)}
      </text>
      <text x={x(now)} y={height - 4} fontSize={11} textAnchor="middle">
        {t('history.now')}
      </text>
    </svg>
  );
}
