import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProcessingConfigList, Role } from '@railwatt/contracts';
import { mockFetch, renderScreens } from '../../../components/ui/screen-harness';
import type { AreaOption } from '../../../lib/stores/area-selection';
import { SettlementScreen } from './settlement-screen';

afterEach(() => vi.unstubAllGlobals());

const NETHERLANDS: AreaOption = {
  uuid: '00000000-0000-4000-8000-000000000009',
  name: 'Netherlands',
  key: 'netherlands',
  kind: 'netherlands',
  timeZone: 'Europe/Amsterdam',
  tenantId: '00000000-0000-4000-8000-000000000009',
};
const UUID = '20000000-0000-4000-8000-000000000002';
const segment = {
  id: 3,
  timeRange: { start: '2025-12-31T23:00:00.000Z', end: '2070-01-01T00:00:00.000Z' },
  value: { tpa: true, requireApproval: false, approvalDeadlineDays: 4 },
  comments: null,
  lastModified: '2026-01-02T10:00:00.000Z',
  lastModifiedBy: 'kari',
};
const list: ProcessingConfigList = {
  uuid: UUID,
  procedure: 'settlement',
  tpa: true,
  segments: [segment],
  current: segment,
};

function renderSettlement(path: string, roles: Role[] = ['erex-settlement-operator']) {
  const base = '/settlementandverification/tpa-settlementconfiguration';
  return renderScreens(
    [
      { path: `${base}/view`, element: <SettlementScreen titleKey="routes.settlement.tpa.configurationView" /> },
      { path: `${base}/edit`, element: <SettlementScreen titleKey="routes.settlement.tpa.configurationEdit" /> },
    ],
    path,
    { areas: [NETHERLANDS], area: NETHERLANDS, rolesInArea: roles, timeZone: NETHERLANDS.timeZone },
  );
}

describe('settlement configuration pages', () => {
  it('reads the tpa twin and links its own segments history', async () => {
    const { calls } = mockFetch({ 'GET /api/domain/processing-config/settlement': list });
    renderSettlement('/settlementandverification/tpa-settlementconfiguration/view');
    expect(await screen.findByTestId('value-approvalDeadlineDays')).toHaveTextContent('4 days');
    expect(screen.getByTestId('value-requireApproval')).toHaveTextContent('No');
    expect(calls[0]!.url.searchParams.get('tpa')).toBe('true');
    expect(screen.getByTestId('config-history')).toHaveAttribute(
      'href',
      `/settlementandverification/tpa-settlementconfiguration/segmentshistory?uuid=${UUID}&procedure=settlement`,
    );
  });

  it('saves the tpa twin from a day', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/domain/processing-config/settlement': list,
      'POST /api/domain/processing-config/settlement': list,
    });
    renderSettlement('/settlementandverification/tpa-settlementconfiguration/edit');
    const days = await screen.findByLabelText('Approval deadline (days)');
    await user.clear(days);
    await user.type(days, '12');
    await user.type(screen.getByLabelText(/Valid from/), '01.02.2026');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(
        '/settlementandverification/tpa-settlementconfiguration/view',
      ),
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      tpa: true,
      validFrom: '2026-01-31T23:00:00Z',
      value: { approvalDeadlineDays: 12, requireApproval: false },
    });
  });
});
