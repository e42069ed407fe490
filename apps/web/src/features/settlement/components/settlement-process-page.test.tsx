import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setLanguage } from '../../../lib/i18n';
import {
  AUDIT,
  CARGO,
  CONSUMER,
  line,
  mockFetch,
  NO1,
  NO2,
  pageOf,
  PROCESS_PATH,
  TPA_PROCESS_PATH,
  renderSettlement,
  settlementResult,
  type Call,
} from '../testing/render-settlement';

afterEach(() => vi.unstubAllGlobals());

const FIND_BY = '/api/eventlog/procedure-result/findBy';
const LINES = '/api/timeseries/settlement/lines';
const LATEST = '/api/eventlog/procedure-result/findLatest';
const APPROVE = '/api/eventlog/procedure-result/approve-procedure-results';
const SAVE = '/api/eventlog/procedure-result/saveProcedureResult/save';
const FAIL = '/api/processing/tasks/set-settlement-procedure-to-failure';
const RUN = '/api/processing/settlement/run';
const JANUARY = `${PROCESS_PATH}?year=2024&month=1`;

const answers = (over: Record<string, unknown> = {}) => ({
  [`POST ${FIND_BY}`]: pageOf([
    settlementResult({ id: 7, executeEndTime: '2024-02-01T08:05:00Z' }),
    settlementResult({ id: 6, status: 'approved', executeEndTime: '2024-01-31T23:30:00Z' }),
  ]),
  [`GET ${LINES}`]: (call: Call) =>
    call.url.searchParams.get('procedureResultId') === '7'
      ? [line(), line({ organisation: CARGO, priceArea: NO2, supplyEnergy: 20.5, supplyCost: 10.25 })]
      : [line({ procedureResultId: 6 })],
  [`POST ${LATEST}`]: settlementResult({ id: 21, procedureName: 'price-and-supply', status: 'approved' }),
  ...over,
});
const callsTo = (calls: Call[], path: string) => calls.filter((c) => c.url.pathname.startsWith(path));
const resultSelect = () => screen.getByRole('textbox', { name: 'Settlement result' });

describe('settlement process', { timeout: 45_000 }, () => {
  it('lists the month’s results newest first, labelled id, end time and status, and shows the first one’s lines with totals', async () => {
    const user = userEvent.setup();
    const { calls, fetchMock } = mockFetch(answers());
    renderSettlement(JANUARY);
    const lines = await screen.findAllByTestId('settlement-line-row');
    expect(lines).toHaveLength(2);
    // calls.md §9: the settlement lookup, page 0 of 1000, newest execution first, the month in Oslo.
    const lookup = callsTo(calls, FIND_BY)[0]!;
    expect(Object.fromEntries(lookup.url.searchParams)).toEqual({
      procedureName: 'settlement',
      page: '0',
      size: '1000',
      sortBy: 'executeStartTime',
      descendingOrder: 'true',
    });
    expect(lookup.body).toEqual({
      observationTimeRange: { start: '2023-12-31T23:00:00Z', end: '2024-01-31T23:00:00Z' },
      tpa: false,
    });
    const init = fetchMock.mock.calls.find(([url]) => String(url).includes(FIND_BY))![1]!;
    expect(init.headers).toMatchObject({ 'Current-Tenant-ZoneId': 'Europe/Oslo' });

    // End times in the area's zone: 08:05Z is 09:05 in Oslo; 31.01 23:30Z is already 1 February there.
    expect(resultSelect()).toHaveValue('7, 01.02.2024 09:05, Success');
    await user.click(resultSelect());
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      '7, 01.02.2024 09:05, Success',
      '6, 01.02.2024 00:30, Approved',
    ]);
    expect(within(lines[1]!).getByText('CargoNet')).toBeInTheDocument();
    // Energy with at most 4 decimals, amounts in øre, the units in the headers (issue 18 item 2).
    expect(screen.getByTestId('total-supplyEnergy')).toHaveTextContent(/^1,020\.5$/);
    expect(screen.getByTestId('total-supplyCost')).toHaveTextContent(/^510\.25$/);
    expect(screen.getByTestId('total-totalCost')).toHaveTextContent(/^1,337\.50$/);
    const headers = within(screen.getByTestId('settlement-lines')).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent).slice(0, 5)).toEqual([
      'Organisation',
      'Price area',
      'Energy (kWh)',
      'Total cost (NOK)',
      'Due (NOK)',
    ]);
    expect(callsTo(calls, LINES)[0]!.url.searchParams.get('procedureResultId')).toBe('7');

    await user.click(screen.getByRole('option', { name: '6, 01.02.2024 00:30, Approved' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('result=6'));
    await waitFor(() => expect(screen.getAllByTestId('settlement-line-row')).toHaveLength(1));
    expect(screen.getByTestId('settlement-status')).toHaveAttribute('data-status', 'approved');
  });

  it('gives the audit roles and the consumer the results without actions or the run link', async () => {
    for (const roles of [AUDIT, CONSUMER]) {
      mockFetch(answers());
      const view = renderSettlement(JANUARY, roles);
      await screen.findAllByTestId('settlement-line-row');
      expect(screen.queryByTestId('settlement-actions')).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Set to failure' })).not.toBeInTheDocument();
      expect(screen.queryByTestId('run-settlement')).not.toBeInTheDocument();
      view.unmount();
      vi.unstubAllGlobals();
    }
  });

  it('offers a runner the actions its result’s status allows, and runs the settlement for the month', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(
      answers({ [`POST ${RUN}`]: settlementResult({ id: 8, status: 'initial', executeEndTime: null }) }),
    );
    renderSettlement(JANUARY);
    await screen.findAllByTestId('settlement-line-row');
    await user.click(screen.getByTestId('run-settlement'));
    // January 2024 in Oslo: [31.12.2023 23:00, 31.01.2024 23:00) UTC.
    await waitFor(() => expect(callsTo(calls, RUN)).toHaveLength(1));
    const run = callsTo(calls, RUN)[0]!;
    expect(run.url.searchParams.get('zoneId')).toBe('Europe/Oslo');
    expect(run.body).toMatchObject({
      timeRange: { start: '2023-12-31T23:00:00Z', end: '2024-01-31T23:00:00Z' },
      refs: [],
    });
    // A success: approve, invalidate and set to failure; not unapprove.
    expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Unapprove' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Invalidate' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Set to failure' })).toBeEnabled();
  });

  it('lists and runs the TPA settlement’s versions on the tpa- twin, and only the plain ones on the plain page', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(
      answers({ [`POST ${RUN}`]: settlementResult({ id: 9, status: 'initial', executeEndTime: null }) }),
    );
    renderSettlement(`${TPA_PROCESS_PATH}?year=2024&month=1`);
    await screen.findAllByTestId('settlement-line-row');
    expect(callsTo(calls, FIND_BY)[0]!.body).toMatchObject({ tpa: true });
    await user.click(screen.getByTestId('run-settlement'));
    await waitFor(() => expect(callsTo(calls, RUN)).toHaveLength(1));
    expect(callsTo(calls, RUN)[0]!.url.searchParams.get('tpa')).toBe('true');
  });

  it('asks the plain page for the plain versions and runs them without tpa', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(
      answers({ [`POST ${RUN}`]: settlementResult({ id: 8, status: 'initial', executeEndTime: null }) }),
    );
    renderSettlement(JANUARY);
    await screen.findAllByTestId('settlement-line-row');
    expect(callsTo(calls, FIND_BY)[0]!.body).toMatchObject({ tpa: false });
    await user.click(screen.getByTestId('run-settlement'));
    await waitFor(() => expect(callsTo(calls, RUN)).toHaveLength(1));
    expect(callsTo(calls, RUN)[0]!.url.searchParams.has('tpa')).toBe(false);
  });

  it('approves after a yes, marking the earlier approved settlement corrected when ticked, and reads the month again', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(
      answers({
        [`POST ${APPROVE}`]: [settlementResult({ id: 7, status: 'approved', message: 'Approved by erex-operator' })],
      }),
    );
    renderSettlement(JANUARY);
    await screen.findAllByTestId('settlement-line-row');
    const lookups = callsTo(calls, FIND_BY).length;
    await user.click(screen.getByLabelText('Mark the earlier approved settlement corrected'));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(
      await screen.findByText(
        'Approve settlement result 7 (01.2024, Norway) and mark the earlier approved settlement corrected?',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(callsTo(calls, APPROVE)).toHaveLength(1));
    const approve = callsTo(calls, APPROVE)[0]!;
    expect(approve.url.searchParams.get('updatePreviouslyApprovedToCorrected')).toBe('true');
    expect(approve.body).toEqual([7]);
    // A short notice says what was approved and by whom (the approve call's answer), no dialog.
    expect(
      await screen.findByText('Settlement result 7 (01.2024, Norway) approved by erex-operator'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(callsTo(calls, FIND_BY).length).toBeGreaterThan(lookups));
  });

  it('sends the flag false when not ticked, and shows the server’s refusal', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(
      answers({
        [`POST ${APPROVE}`]: () =>
          new Response(
            JSON.stringify({
              status: 400,
              error: 'Bad Request',
              code: 'approved-settlement-exists',
              message: 'Approved settlement already exists for the area or organisation',
            }),
            { status: 400, statusText: 'Bad Request', headers: { 'content-type': 'application/json' } },
          ),
      }),
    );
    renderSettlement(JANUARY);
    await screen.findAllByTestId('settlement-line-row');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approve settlement result 7 (01.2024, Norway)?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByTestId('settlement-action-error')).toHaveTextContent(
      'Approved settlement already exists for the area or organisation',
    );
    expect(callsTo(calls, APPROVE)[0]!.url.searchParams.get('updatePreviouslyApprovedToCorrected')).toBe('false');
  });

  it('unapproves an approved result back to success, and sets a success to failure, each after a yes', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(
      answers({
        [`POST ${SAVE}`]: settlementResult({ id: 6, status: 'success' }),
        [`POST ${FAIL}/7`]: settlementResult({ id: 7, status: 'failure' }),
      }),
    );
    renderSettlement(`${JANUARY}&result=6`);
    await screen.findAllByTestId('settlement-line-row');
    expect(screen.getByRole('button', { name: 'Approve' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Set to failure' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Unapprove' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(callsTo(calls, SAVE)).toHaveLength(1));
    expect(callsTo(calls, SAVE)[0]!.body).toEqual({ id: 6, status: 'success' });
    // The outcome's notice, then on to the other result.
    expect(await screen.findByText('Settlement result 6 (01.2024, Norway) is no longer approved')).toBeInTheDocument();

    await user.click(screen.getByRole('textbox', { name: 'Settlement result' }));
    await user.click(screen.getByRole('option', { name: '7, 01.02.2024 09:05, Success' }));
    await user.click(await screen.findByRole('button', { name: 'Set to failure' }));
    expect(await screen.findByText('Set settlement result 7 (01.2024, Norway) to failure?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(callsTo(calls, FAIL)).toHaveLength(1));
    expect(callsTo(calls, FAIL)[0]!.url.pathname).toBe(`${FAIL}/7`);
  });

  it('warns when the month’s newest prices and supply are not the approved ones', async () => {
    const { calls } = mockFetch(
      answers({ [`POST ${LATEST}`]: settlementResult({ id: 22, procedureName: 'price-and-supply' }) }),
    );
    renderSettlement(JANUARY);
    expect(await screen.findByTestId('prices-not-approved')).toHaveTextContent(
      'Prices and supply for the month are not approved',
    );
    const latest = callsTo(calls, LATEST)[0]!;
    expect(Object.fromEntries(latest.url.searchParams)).toEqual({
      procedureName: 'price-and-supply',
      interval: '2023-12-31T23:00:00Z,2024-01-31T23:00:00Z',
      status: 'success,approved',
    });
    expect(latest.body).toEqual([]);
  });

  it('warns when the month has no prices and supply at all', async () => {
    mockFetch(answers({ [`POST ${LATEST}`]: null }));
    renderSettlement(JANUARY);
    expect(await screen.findByTestId('prices-not-approved')).toBeInTheDocument();
  });

  it('approves the month’s newest successful prices and supply from the warning', async () => {
    const user = userEvent.setup();
    let approved = false;
    const { calls } = mockFetch(
      answers({
        [`POST ${LATEST}`]: () =>
          settlementResult({ id: 21, procedureName: 'price-and-supply', status: approved ? 'approved' : 'success' }),
        [`POST ${FIND_BY}`]: (call: Call) =>
          call.url.searchParams.get('procedureName') === 'price-and-supply'
            ? pageOf([settlementResult({ id: 21, procedureName: 'price-and-supply' })])
            : pageOf([settlementResult({ id: 7 })]),
        [`POST ${APPROVE}`]: () => {
          approved = true;
          return [settlementResult({ id: 21, status: 'approved', message: 'Approved by erex-operator' })];
        },
      }),
    );
    renderSettlement(JANUARY);
    await user.click(await screen.findByTestId('approve-prices'));
    // A question naming what is approved first; nothing is sent before the yes.
    expect(
      await screen.findByText('Approve prices and supply (price-and-supply) of 01.2024 in Norway?'),
    ).toBeInTheDocument();
    expect(callsTo(calls, APPROVE)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(
      await screen.findByText(
        'Prices and supply of 01.2024 in Norway approved by erex-operator (price-and-supply result 21)',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('prices-not-approved')).not.toBeInTheDocument());
    const lookup = callsTo(calls, FIND_BY).find((c) => c.url.searchParams.get('procedureName') === 'price-and-supply')!;
    expect(lookup.body).toMatchObject({ statuses: ['success'] });
    const approve = callsTo(calls, APPROVE)[0]!;
    expect(approve.body).toEqual([21]);
    expect(approve.url.searchParams.get('updatePreviouslyApprovedToCorrected')).toBe('true');
  });

  it('does not warn when they are approved, and says when the month has no results', async () => {
    const { calls } = mockFetch(answers({ [`POST ${FIND_BY}`]: pageOf([]) }));
    renderSettlement(JANUARY);
    expect(await screen.findByTestId('settlement-no-results')).toBeInTheDocument();
    await waitFor(() => expect(callsTo(calls, LATEST)).toHaveLength(1));
    expect(screen.queryByTestId('prices-not-approved')).not.toBeInTheDocument();
    expect(screen.queryByTestId('settlement-line-row')).not.toBeInTheDocument();
  });

  it('asks for a month chosen within a second of the last lookup only when the second is over', async () => {
    const user = userEvent.setup();
    const asked: { month: string; at: number }[] = [];
    mockFetch(
      answers({
        [`POST ${FIND_BY}`]: (call: Call) => {
          const range = (call.body as { observationTimeRange: { start: string } }).observationTimeRange;
          asked.push({ month: range.start, at: Date.now() });
          return pageOf([settlementResult({ id: 7 })]);
        },
      }),
    );
    const start = Date.now();
    renderSettlement(JANUARY);
    await screen.findAllByTestId('settlement-line-row');
    const pick = async (month: string) => {
      await user.click(screen.getByTestId('settlement-month'));
      await user.click(await screen.findByRole('button', { name: month }));
    };
    await pick('Mar');
    await pick('Apr');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('month=4'));
    // March in Oslo starts 2024-02-29T23:00Z, April (summer time) 2024-03-31T22:00Z.
    await waitFor(() => expect(asked.at(-1)?.month).toBe('2024-03-31T22:00:00Z'), { timeout: 4_000 });
    expect(asked[0]!.month).toBe('2023-12-31T23:00:00Z');
    // Both months were chosen within the second the first lookup opened: none is asked for before
    // it is over. (Request times, not the throttle's, are recorded: the API's rate limiter may delay
    // a request further, never bring it forward.)
    for (const later of asked.filter((a) => a.month !== asked[0]!.month)) {
      expect(later.at - start).toBeGreaterThanOrEqual(1_000);
    }
  });
  it('folds lines that are all zero behind a button with their count, and opens a line’s energy parts', async () => {
    const user = userEvent.setup();
    const zero = line({ organisation: CARGO, priceArea: NO2 });
    for (const key of Object.keys(zero) as (keyof typeof zero)[])
      if (typeof zero[key] === 'number' && key !== 'procedureResultId') Object.assign(zero, { [key]: 0 });
    mockFetch(answers({ [`GET ${LINES}`]: [line(), zero, { ...zero, priceArea: NO1 }] }));
    renderSettlement(JANUARY);
    await waitFor(() => expect(screen.getAllByTestId('settlement-line-row')).toHaveLength(1));
    const toggle = screen.getByRole('button', { name: 'Show 2 lines with all zeros' });
    // The totals count every line; the folded ones add nothing to them.
    expect(screen.getByTestId('settlement-lines-totals')).toHaveTextContent('3 lines');
    await user.click(toggle);
    expect(screen.getAllByTestId('settlement-line-row')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Hide 2 lines with all zeros' }));
    expect(screen.getAllByTestId('settlement-line-row')).toHaveLength(1);

    // The organisation's column stays in place when the table scrolls; the energy parts open per line.
    const first = screen.getAllByRole('columnheader')[0]!;
    expect(first).toHaveStyle({ position: 'sticky', left: '0px' });
    await user.click(screen.getByRole('button', { name: 'Energy parts of Vy' }));
    const parts = screen.getByTestId('settlement-line-parts');
    expect(within(parts).getByText('Metered (kWh)')).toBeInTheDocument();
    expect(within(parts).getByTestId('part-meteredEnergy')).toHaveTextContent(/^800$/);
  });

  it('folds a long result message after three parts with a count, and names series types in words', async () => {
    const user = userEvent.setup();
    const message = [
      'Done 31 of 31 days',
      'Prices and supply outdated: 4 values stored after price-and-supply (cebd_active_energy_consumed CP-1 (a.xml))',
      'warning two',
      'warning three',
      'warning four',
      'warning five',
    ].join('\n');
    mockFetch(answers({ [`POST ${FIND_BY}`]: pageOf([settlementResult({ id: 7, message })]) }));
    renderSettlement(JANUARY);
    const folded = await screen.findByTestId('settlement-result-message');
    expect(within(folded).getAllByRole('listitem')).toHaveLength(3);
    expect(folded).toHaveTextContent('active energy consumed (CEBD) CP-1');
    expect(folded).not.toHaveTextContent('cebd_active_energy_consumed');
    await user.click(within(folded).getByRole('button', { name: '3 more' }));
    expect(within(folded).getAllByRole('listitem')).toHaveLength(6);
    await user.click(within(folded).getByRole('button', { name: 'Show less' }));
    expect(within(folded).getAllByRole('listitem')).toHaveLength(3);
  });

  it('shows amounts with the separators of the user’s language', async () => {
    await setLanguage('nb');
    try {
      mockFetch(answers());
      renderSettlement(JANUARY);
      await screen.findAllByTestId('settlement-line-row');
      const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
      await waitFor(() => expect(plain(screen.getByTestId('total-totalCost').textContent)).toBe('1 337,50'));
      expect(plain(screen.getByTestId('total-supplyEnergy').textContent)).toBe('1 020,5');
      expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toContain('Til betaling (NOK)');
    } finally {
      await setLanguage('en');
    }
  });
});
