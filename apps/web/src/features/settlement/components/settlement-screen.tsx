import { NotBuiltPage } from '../../../components/ui/not-built';
import {
  ConfigEditPage,
  ConfigSegmentsHistoryPage,
  ConfigViewPage,
} from '../../../components/ui/process-config/process-config-pages';
import type { ScreenProps } from '../../../lib/routes';

/** routes.settlement.[tpa.]<page> -> the page and whether it is the tpa twin. */
function pageOf(titleKey: string): { page: string; tpa: boolean } {
  const rest = titleKey.replace(/^routes\.settlement\./, '');
  return rest.startsWith('tpa.') ? { page: rest.slice(4), tpa: true } : { page: rest, tpa: false };
}

/**
 * The settlement screens (settlement.routes.tsx names them by title key): the settlement
 * configuration's view, edit and segments history (and their tpa twins) are built, on the shared
 * processing-configuration pages; the others show the route's title and the not-built notice until a
 * later issue builds them. This module is loaded lazily, in the settlement section's own chunk.
 */
export function SettlementScreen(props: ScreenProps) {
  const { page, tpa } = pageOf(props.titleKey);
  const base = `/settlementandverification/${tpa ? 'tpa-' : ''}settlementconfiguration`;
  if (page === 'configurationView')
    return (
      <ConfigViewPage
        key={String(tpa)}
        procedure="settlement"
        tpa={tpa}
        historyPath={`${base}/segmentshistory`}
        {...props}
      />
    );
  if (page === 'configurationEdit')
    return <ConfigEditPage key={String(tpa)} procedure="settlement" tpa={tpa} {...props} />;
  if (page === 'configurationSegmentsHistory') return <ConfigSegmentsHistoryPage {...props} />;
  return <NotBuiltPage {...props} />;
}
