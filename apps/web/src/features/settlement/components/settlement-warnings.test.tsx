import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SettlementWarnings } from '@railwatt/contracts';
import { shownMessage } from './settlement-warnings';
import {
  AUDIT,
  CARGO,
  line,
  mockFetch,
  NO1,
  NO2,
  pageOf,
  PROCESS_PATH,
  renderSettlement,
  settlementResult,
  VY,
  type Call,
} from '../testing/render-settlement';

afterEach(() => vi.unstubAllGlobals());

const WARNINGS = '/api/timeseries/settlement/warnings';
const RUN_PRICES = '/api/processing/price-and-supply/run';
const JANUARY = `${PROCESS_PATH}?year=2024&month=1`;

const none: SettlementWarnings = {
  procedureResultId: 7,
  missingContracts: [],
  supplyChanged: null,
  repricedAfterSettlement: null,
  allocatedAfterPricing: null,
};
const stale: SettlementWarnings = {
  ...none,
  missingContracts: [{ organisation: CARGO, priceArea: NO2, days: 31 }],
  supplyChanged: {
    pricedAt: '2024-02-01T07:00:00Z',
    changedAt: '2024-02-02T09:30:00Z',
    values: 2,
    changes: [{ typeName: 'supply_energy', identifier: 'SMP-OSLO-S', fileName: 'supply-corrected.csv' }],
  },
};

const answers = (warnings: SettlementWarnings) => ({
  [`POST /api/eventlog/procedure-result/findBy`]: pageOf([settlementResult({ id: 7 })]),
  [`GET /api/timeseries/settlement/lines`]: [
    line({ organisation: VY, priceArea: NO1 }),
    line({ organisation: CARGO, priceArea: NO2, supplyEnergy: 20.5, supplyCost: 10.25 }),
  ],
  [`POST /api/eventlog/procedure-result/findLatest`]: settlementResult({
    id: 21,
    procedureName: 'price-and-supply',
    status: 'approved',
  }),
  [`GET ${WARNINGS}`]: warnings,
  [`POST ${RUN_PRICES}`]: settlementResult({ id: 22, procedureName: 'price-and-supply', status: 'initial' }),
});
const callsTo = (calls: Call[], path: string) => calls.filter((c) => c.url.pathname === path);

describe('settlement warnings (issue 18 item 5)', { timeout: 45_000 }, () => {
  it('names the line without a contract beside it and above the table, and offers to rerun price-and-supply after a supply change', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(answers(stale));
    renderSettlement(JANUARY);
    const rows = await screen.findAllByTestId('settlement-line-row');
    // The badge is on CargoNet's NO2 line alone, with the warning's words for a screen reader.
    const cargo = rows.find((r) => within(r).queryByText('CargoNet'))!;
    const badge = await within(cargo).findByTestId('line-contract-warning');
    expect(badge).toHaveTextContent(
      'No contract: No contract valid in NO2 for CargoNet: 31 days billed without fees, tax and VAT',
    );
    const vy = rows.find((r) => within(r).queryByText('Vy'))!;
    expect(within(vy).queryByTestId('line-contract-warning')).toBeNull();
    expect(screen.getByTestId('warning-missing-contracts')).toHaveTextContent(
      '1 line is billed without fees, tax and VAT: no contract is valid in its price area',
    );
    expect(callsTo(calls, WARNINGS)[0]!.url.searchParams.get('procedureResultId')).toBe('7');

    const supply = screen.getByTestId('warning-supply-changed');
    expect(supply).toHaveTextContent(
      'Supply changed after the price-and-supply result this settlement reads: rerun price-and-supply',
    );
    // Times on the area's wall clock (Oslo), the series and the file that changed it.
    expect(supply).toHaveTextContent(
      'stored after the month was priced (01.02.2024 08:00), the last at 02.02.2024 10:30',
    );
    expect(supply).toHaveTextContent('SMP-OSLO-S (file supply-corrected.csv)');
    await user.click(within(supply).getByTestId('rerun-price-and-supply'));
    await waitFor(() => expect(callsTo(calls, RUN_PRICES)).toHaveLength(1));
    const run = callsTo(calls, RUN_PRICES)[0]!;
    expect(run.url.searchParams.get('zoneId')).toBe('Europe/Oslo');
    expect(run.body).toEqual({ timeRange: { start: '2023-12-31T23:00:00Z', end: '2024-01-31T23:00:00Z' }, refs: [] });
    expect(await screen.findByTestId('price-and-supply-started')).toHaveTextContent(
      'price-and-supply run 22 started: run the settlement again when it has finished',
    );
  });

  it('says nothing when there is nothing to warn about, and offers no run to the audit roles', async () => {
    mockFetch(answers(none));
    renderSettlement(JANUARY);
    await screen.findAllByTestId('settlement-line-row');
    await waitFor(() => expect(screen.getByTestId('settlement-warnings')).toBeInTheDocument());
    expect(screen.getByTestId('settlement-warnings')).toBeEmptyDOMElement();
    expect(screen.queryByTestId('line-contract-warning')).toBeNull();
    vi.unstubAllGlobals();

    mockFetch(answers({ ...stale, repricedAfterSettlement: { pricedAt: '2024-02-03T07:00:00Z' } }));
    renderSettlement(JANUARY, AUDIT);
    expect(await screen.findByTestId('warning-supply-changed')).toBeInTheDocument();
    expect(screen.queryByTestId('rerun-price-and-supply')).toBeNull();
    expect(screen.getByTestId('warning-repriced')).toHaveTextContent(
      'Prices and supply were calculated again after this settlement (03.02.2024 08:00): run the settlement again',
    );
  });

  it('shows no "Approved by" for a corrected result', () => {
    expect(shownMessage({ status: 'corrected', message: 'Approved by erex-x' })).toBeNull();
    expect(
      shownMessage({
        status: 'corrected',
        message: 'Approved by erex-x; corrected when one approval per scope became a rule',
      }),
    ).toBe('corrected when one approval per scope became a rule');
    expect(
      shownMessage({
        status: 'corrected',
        message: 'Corrected by erex-y at 2026-11-27 13:40 UTC: result 8 approved in its place',
      }),
    ).toBe('Corrected by erex-y at 2026-11-27 13:40 UTC: result 8 approved in its place');
    expect(shownMessage({ status: 'approved', message: 'Approved by erex-x' })).toBe('Approved by erex-x');
  });
});
