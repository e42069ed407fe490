import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role, TuSettlementList } from '@railwatt/contracts';
import { mockFetch, renderScreens } from '../screen-harness';
import { TuSettlementPage } from './tu-settlement-page';
import { NORWAY_AREA as NORWAY } from '../../../lib/testing/areas';

afterEach(() => vi.unstubAllGlobals());

const defaults = (id: string, name: string): TuSettlementList[number] => ({
  settlementAreaId: id,
  settlementAreaName: name,
  uuid: null,
  segments: [],
  current: {
    id: 0,
    timeRange: { start: '1970-01-01T00:00:00.000Z', end: '2070-01-01T00:00:00.000Z' },
    value: { settleByTransmissionUnit: true, transmissionLossPercent: 0 },
    comments: null,
    lastModified: '1970-01-01T00:00:00.000Z',
    lastModifiedBy: 'system',
  },
});
const DENMARK = '00000000-0000-4000-8000-000000000004';
const answer = [defaults(DENMARK, 'Denmark'), defaults(NORWAY.uuid, 'Norway')];

const renderPage = (roles: Role[]) =>
  renderScreens(
    [
      {
        path: '/administration/settlementconfiguration',
        element: <TuSettlementPage titleKey="routes.administration.settlementConfiguration" />,
      },
    ],
    '/administration/settlementconfiguration',
    { areas: [NORWAY], area: NORWAY, rolesInArea: roles, timeZone: NORWAY.timeZone },
  );

describe('transmission-unit settlement configuration', () => {
  it('shows each area and saves a change from a day for a writer', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/domain/processing-config/tu-settlement': answer,
      [`POST /api/domain/processing-config/tu-settlement/${DENMARK}`]: answer,
    });
    renderPage(['erex-administrator']);
    const card = await screen.findByTestId('tu-area-Denmark');
    expect(within(card).getByText('No configuration is stored; the defaults are used.')).toBeInTheDocument();
    const loss = within(card).getByLabelText('Transmission loss (%)');
    await user.clear(loss);
    await user.type(loss, '2.5');
    await user.type(within(card).getByLabelText(/Valid from/), '01.01.2026');
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      validFrom: '2025-12-31T23:00:00Z',
      comments: null,
      value: { settleByTransmissionUnit: true, transmissionLossPercent: 2.5 },
    });
  });

  it('shows the transmission loss as a percentage with 2 decimals (issue 18 item 2)', async () => {
    const norway = defaults(NORWAY.uuid, 'Norway');
    norway.current.value = { settleByTransmissionUnit: true, transmissionLossPercent: 2.5 };
    mockFetch({ 'GET /api/domain/processing-config/tu-settlement': [norway] });
    renderPage(['audit-settlement-area-responsible']);
    const card = await screen.findByTestId('tu-area-Norway');
    expect(within(card).getByText('2.50%')).toBeInTheDocument();
  });

  it('is read-only for an audit role', async () => {
    mockFetch({ 'GET /api/domain/processing-config/tu-settlement': answer });
    renderPage(['audit-settlement-area-responsible']);
    await screen.findByTestId('tu-area-Norway');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });
});
