import { NotBuiltPage } from '../../../components/ui/not-built';
import {
  ConfigEditPage,
  ConfigSegmentsHistoryPage,
  ConfigViewPage,
} from '../../../components/ui/process-config/process-config-pages';
import type { ScreenProps } from '../../../lib/routes';
import { BaseVerificationPage } from './base-verification-page';
import { SettlementProcessPage } from './settlement-process-page';

/** routes.settlement.[tpa.]<page> -> the page and whether it is the tpa twin. */
function pageOf(titleKey: string): { page: string; tpa: boolean } {
  const rest = titleKey.replace(/^routes\.settlement\./, '');
  return rest.startsWith('tpa.') ? { page: rest.slice(4), tpa: true } : { page: rest, tpa: false };
}

/**
 * The settlement screens (settlement.routes.tsx names them by title key): the base verification (its
 * tpa twin the same: the balance is price-and-supply's, one per month) and the settlement process
 * (its tpa twin lists and runs the TPA settlement's versions), and the
 * settlement configuration's view, edit and segments history (and their tpa twins) on the shared
 * processing-configuration pages. A title key of none of them shows the not-built notice. This module
 * is loaded lazily, in the settlement section's own chunk.
 */
export function SettlementScreen(props: ScreenProps) {
  const { page, tpa } = pageOf(props.titleKey);
  const base = `/settlementandverification/${tpa ? 'tpa-' : ''}settlementconfiguration`;
  if (page === 'baseVerification') return <BaseVerificationPage key={String(tpa)} {...props} />;
  if (page === 'process') return <SettlementProcessPage key={String(tpa)} tpa={tpa} {...props} />;
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
