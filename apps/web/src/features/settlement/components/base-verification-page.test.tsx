import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  balance,
  BASE_PATH,
  CARGO,
  CONSUMER,
  GRID,
  hour,
  mockFetch,
  NO2,
  renderSettlement,
  verificationRow,
  type Call,
} from '../testing/render-settlement';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const ROWS = '/api/timeseries/settlement/settlementbaseverification';
const BALANCE = '/api/timeseries/settlement/settlementbaseverification/balance';
const HOURLY = '/api/timeseries/settlement/hourly';
const RECORDS = '/api/timeseries/settlement/records';
const EUSA = '/api/domain/infrastructure/options/eusa';
const EUSA_UUID = '77777777-7777-4777-8777-777777777777';

const answers = (over: Record<string, unknown> = {}) => ({
  [`GET ${ROWS}`]: [
    verificationRow(),
    verificationRow({ organisation: CARGO, priceArea: NO2, meteredEnergy: 123.45678, supplyEnergy: 200.1 }),
  ],
  [`GET ${BALANCE}`]: [balance()],
  [`GET ${EUSA}`]: [
    {
      uuid: EUSA_UUID,
      name: 'Eastern Norway',
      type: 'EnergyUseSettlementArea',
      active: true,
      state: 'ACTIVE',
      timeRange: { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
    },
  ],
  ...over,
});
const callsTo = (calls: Call[], path: string) => calls.filter((c) => c.url.pathname === path);
const findRows = () => screen.findAllByTestId('verification-row');

describe('settlement base verification', { timeout: 45_000 }, () => {
  it('asks for the URL’s month and shows a row per organisation and price area, energies in kWh, amounts in NOK', async () => {
    const { calls } = mockFetch(answers());
    renderSettlement(`${BASE_PATH}?year=2024&month=1`);
    const rows = await findRows();
    expect(rows).toHaveLength(2);
    expect(Object.fromEntries(callsTo(calls, ROWS)[0]!.url.searchParams)).toEqual({
      startYear: '2024',
      startMonth: '1',
    });
    // The API client's rate limit (5 requests a second) may hold the other calls back for a moment.
    await waitFor(() => expect(callsTo(calls, BALANCE)).toHaveLength(1));
    expect(Object.fromEntries(callsTo(calls, BALANCE)[0]!.url.searchParams)).toEqual({
      startYear: '2024',
      startMonth: '1',
    });
    // The energy use settlement areas valid in January 2024 in Oslo.
    await waitFor(() => expect(callsTo(calls, EUSA)).toHaveLength(1));
    expect(Object.fromEntries(callsTo(calls, EUSA)[0]!.url.searchParams)).toEqual({
      start: '2023-12-31T23:00:00Z',
      end: '2024-01-31T23:00:00Z',
    });
    const first = within(rows[0]!);
    expect(first.getByText('Vy')).toBeInTheDocument();
    expect(first.getByText('NO1')).toBeInTheDocument();
    // Energies with at most 4 decimals, amounts in the currency's minor unit (issue 18 item 2).
    expect(first.getByTestId('verification-supply')).toHaveTextContent(/^1,000$/);
    expect(first.getByTestId('trace-metered')).toHaveTextContent(/^800$/);
    expect(first.getByTestId('verification-supplyCost')).toHaveTextContent(/^500\.00$/);
    const headers = within(screen.getByTestId('verification-table')).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(
      expect.arrayContaining(['Supply (kWh)', 'Metered (kWh)', 'Losses (kWh)', 'Supply cost (NOK)']),
    );
    const second = within(rows[1]!);
    expect(second.getByText('CargoNet')).toBeInTheDocument();
    expect(second.getByTestId('trace-metered')).toHaveTextContent('123.4568');
    expect(second.getByTestId('verification-supply')).toHaveTextContent(/^200\.1$/);
    expect(await screen.findByTestId('balance-chart')).toBeInTheDocument();
    expect(screen.getByTestId('settlement-month')).toHaveTextContent('01.2024');
  });

  it('defaults to the previous month in the area’s zone', async () => {
    // 1 March 00:30 in Oslo is still February in UTC: the area's zone says the previous month is February.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2024-02-29T23:30:00Z'));
    const { calls } = mockFetch(answers());
    renderSettlement(BASE_PATH);
    await findRows();
    expect(callsTo(calls, ROWS)[0]!.url.searchParams.get('startYear')).toBe('2024');
    expect(callsTo(calls, ROWS)[0]!.url.searchParams.get('startMonth')).toBe('2');
  });

  it('sends the energy use settlement area of the URL', async () => {
    const { calls } = mockFetch(answers());
    renderSettlement(`${BASE_PATH}?year=2024&month=1&eusa=${EUSA_UUID}`);
    await findRows();
    expect(callsTo(calls, ROWS)[0]!.url.searchParams.get('eusa')).toBe(EUSA_UUID);
    // The API client's rate limit (5 requests a second) may hold the next call back for a moment.
    await waitFor(() => expect(callsTo(calls, BALANCE)[0]?.url.searchParams.get('eusa')).toBe(EUSA_UUID));
  });

  it('says in green when a price area’s balance closes', async () => {
    mockFetch(answers());
    renderSettlement(`${BASE_PATH}?year=2024&month=1`);
    const status = await screen.findByTestId('balance-status');
    expect(status).toHaveAttribute('data-closes', 'true');
    expect(status).toHaveTextContent('Balance closes');
    const card = within(screen.getByTestId('balance-card'));
    expect(card.getByTestId('balance-supply')).toHaveTextContent(/^1,000$/);
    expect(card.getByTestId('balance-parts')).toHaveTextContent(/^1,000$/);
    expect(card.getByTestId('balance-difference')).toHaveTextContent(/^0$/);
    expect(card.queryByTestId('balance-hours-without-supply')).not.toBeInTheDocument();
  });

  it('says in red by how much a balance does not close, and warns of hours without supply or price', async () => {
    mockFetch(
      answers({
        [`GET ${BALANCE}`]: [
          balance({
            supplyEnergy: 1012.5,
            difference: 12.5,
            unbilledLossesEnergy: 10,
            hoursWithoutSupply: 3,
            hoursWithoutPrice: 1,
          }),
        ],
      }),
    );
    renderSettlement(`${BASE_PATH}?year=2024&month=1`);
    const status = await screen.findByTestId('balance-status');
    expect(status).toHaveAttribute('data-closes', 'false');
    expect(status).toHaveTextContent('Balance does not close (difference 12.5 kWh)');
    expect(screen.getByTestId('balance-unbilled-losses')).toHaveTextContent(/^10$/);
    expect(screen.getByTestId('balance-hours-without-supply')).toHaveTextContent('3 hours with energy but no supply');
    expect(screen.getByTestId('balance-hours-without-price')).toHaveTextContent('1 hour with energy but no spot price');
  });

  it('opens the hourly values behind a metered figure, whose sum is the figure, and the records behind an hour', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(
      answers({
        [`GET ${HOURLY}`]: [
          hour('2023-12-31T23:00:00Z', 100.12345),
          hour('2024-01-01T00:00:00Z', 20.33333),
          hour('2024-01-01T01:00:00Z', 3.0),
        ],
        [`GET ${RECORDS}`]: [
          {
            consumptionPoint: { uuid: '88888888-8888-4888-8888-888888888888', type: 'ConsumptionPoint', name: 'CP 1' },
            periodEnd: '2023-12-31T23:05:00Z',
            activeConsumed: 60.5,
            activeRegenerated: 0,
            category: 'train-run',
            trainNumber: '41',
            dataLogId: 9,
            fileName: 'cebd-2024-01-01.xml',
          },
          {
            consumptionPoint: { uuid: '88888888-8888-4888-8888-888888888888', type: 'ConsumptionPoint', name: 'CP 1' },
            periodEnd: '2023-12-31T23:10:00Z',
            activeConsumed: 41,
            activeRegenerated: 1,
            category: 'shunting-and-stabling',
            trainNumber: null,
            dataLogId: 9,
            fileName: 'cebd-2024-01-01.xml',
          },
        ],
      }),
    );
    renderSettlement(`${BASE_PATH}?year=2024&month=1`);
    const rows = await findRows();
    const figure = within(rows[1]!).getByTestId('trace-metered');
    await user.click(figure);
    const hours = await screen.findAllByTestId('hourly-row');
    expect(hours).toHaveLength(3);
    expect(within(hours[0]!).getByText('01.01.2024 00:00')).toBeInTheDocument();
    expect(within(hours[0]!).getByText('Oslo grid')).toBeInTheDocument();
    expect(screen.getByTestId('hourly-sum')).toHaveTextContent(figure.textContent!);
    expect(screen.queryByTestId('hourly-mismatch')).not.toBeInTheDocument();
    expect(screen.getByText('Metered energy of CargoNet in NO2, 01.2024')).toBeInTheDocument();
    const modal = within(screen.getByTestId('hourly-modal'));
    expect(
      modal
        .getAllByRole('columnheader')
        .slice(0, 5)
        .map((h) => h.textContent),
    ).toEqual(['Hour', 'Grid area', 'Energy (kWh)', 'Price (NOK/MWh)', 'Cost (NOK)']);
    expect(Object.fromEntries(callsTo(calls, HOURLY)[0]!.url.searchParams)).toEqual({
      startYear: '2024',
      startMonth: '1',
      organisation: CARGO.uuid,
      priceArea: NO2.uuid,
      category: 'metered',
    });

    // An hour opens the CEBD records behind it; their net sum is the hour's energy.
    await user.click(within(hours[0]!).getByTestId('trace-hour'));
    const records = await screen.findAllByTestId('record-row');
    expect(records).toHaveLength(2);
    expect(within(records[0]!).getByText('cebd-2024-01-01.xml')).toBeInTheDocument();
    expect(within(records[1]!).getByText('Shunting and stabling')).toBeInTheDocument();
    expect(screen.getByTestId('records-net')).toHaveTextContent(/^100\.5$/);
    expect(Object.fromEntries(callsTo(calls, RECORDS)[0]!.url.searchParams)).toEqual({
      organisation: CARGO.uuid,
      gridArea: GRID.uuid,
      hourStart: '2023-12-31T23:00:00Z',
    });

    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('hourly-row')).not.toBeInTheDocument());
  });

  it('gives a consumer its rows, and a chart of them when there is no balance to show', async () => {
    mockFetch(answers({ [`GET ${BALANCE}`]: [] }));
    renderSettlement(`${BASE_PATH}?year=2024&month=1`, CONSUMER);
    await findRows();
    expect(await screen.findByTestId('balance-empty')).toBeInTheDocument();
    expect(await screen.findByTestId('balance-chart')).toBeInTheDocument();
    // A consumer cannot run price-and-supply: no way there is offered.
    expect(screen.queryByTestId('balance-empty-run')).toBeNull();
  });

  it('points a user who may run it from an empty balance to price-and-supply’s run page', async () => {
    mockFetch(answers({ [`GET ${BALANCE}`]: [] }));
    renderSettlement(`${BASE_PATH}?year=2024&month=1`);
    const run = await screen.findByTestId('balance-empty-run');
    expect(run).toHaveTextContent('The balance comes from price-and-supply: run it for the month.');
    expect(run).toHaveAttribute('href', '/monitor/processes/price-and-supply/run');
  });
  it('gives the two 02:00 hours of the day the clock goes back their offsets', async () => {
    const user = userEvent.setup();
    mockFetch(
      answers({
        [`GET ${HOURLY}`]: [
          hour('2026-10-24T23:00:00Z', 1),
          hour('2026-10-25T00:00:00Z', 2),
          hour('2026-10-25T01:00:00Z', 3),
          hour('2026-10-26T01:00:00Z', 4),
        ],
      }),
    );
    renderSettlement(`${BASE_PATH}?year=2026&month=10`);
    const rows = await findRows();
    await user.click(within(rows[0]!).getByTestId('trace-metered'));
    const hours = await screen.findAllByTestId('trace-hour');
    expect(hours.map((h) => h.textContent)).toEqual([
      '25.10.2026 01:00 +02:00',
      '25.10.2026 02:00 +02:00',
      '25.10.2026 02:00 +01:00',
      '26.10.2026 02:00',
    ]);
  });
});
