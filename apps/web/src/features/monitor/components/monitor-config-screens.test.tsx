import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  PROCESSING_CONFIG_READERS,
  PROCESSING_CONFIG_WRITERS,
  SECOND_AGGREGATION_MESSAGE,
  type ProcessingConfigList,
  type Role,
  type Segment,
} from '@railwatt/contracts';
import type { AppRoute } from '../../../lib/routes';
import { monitorRoutes } from '../monitor.routes';
import { mockFetch, renderScreens } from '../../../components/ui/screen-harness';
import { MonitorScreen } from './monitor-screen';
import { NORWAY_AREA as NORWAY } from '../../../lib/testing/areas';
import { setLanguage } from '../../../lib/i18n';

afterEach(() => vi.unstubAllGlobals());

const CONFIG_UUID = '20000000-0000-4000-8000-000000000001';

const screenOf = (process: string, titleKey: string) => (
  <MonitorScreen titleKey={titleKey} titleArgs={{ process: `processes.${process}` }} />
);

function renderConfig(path: string, roles: Role[] = ['settlement-area-responsible']) {
  const base = '/monitor/processes/metered-energy-aggregation/configuration';
  return renderScreens(
    [
      {
        path: `${base}/view`,
        element: screenOf('metered-energy-aggregation', 'routes.monitor.process.configurationView'),
      },
      {
        path: `${base}/edit`,
        element: screenOf('metered-energy-aggregation', 'routes.monitor.process.configurationEdit'),
      },
      {
        path: '/monitor/processes/train-preprocessing/configuration/view',
        element: screenOf('train-preprocessing', 'routes.monitor.process.configurationView'),
      },
      {
        path: '/monitor/processes/train-preprocessing/configuration/edit',
        element: screenOf('train-preprocessing', 'routes.monitor.process.configurationEdit'),
      },
      {
        path: '/monitor/processes/energy-outside-train-run/configuration/view',
        element: screenOf('energy-outside-train-run', 'routes.monitor.process.configurationView'),
      },
      {
        path: '/monitor/processes/segmentshistory',
        element: <MonitorScreen titleKey="routes.common.segmentsHistory" />,
      },
    ],
    path,
    { areas: [NORWAY], area: NORWAY, rolesInArea: roles, timeZone: NORWAY.timeZone },
  );
}

const segment = {
  id: 7,
  timeRange: { start: '2025-12-31T23:00:00.000Z', end: '2070-01-01T00:00:00.000Z' },
  value: { daysBackFirstAggregation: 5, daysBackSecondAggregation: 40, defaultAggregation: 'SECOND' },
  comments: 'Winter',
  lastModified: '2026-01-02T10:00:00.000Z',
  lastModifiedBy: 'kari',
};
const list: ProcessingConfigList = {
  uuid: CONFIG_UUID,
  procedure: 'metered-energy-aggregation',
  tpa: false,
  segments: [segment],
  current: segment,
};

describe('process configuration pages', () => {
  it('shows the version in use read-only, with edit and history for a writer', async () => {
    mockFetch({ 'GET /api/domain/processing-config/metered-energy-aggregation': list });
    renderConfig('/monitor/processes/metered-energy-aggregation/configuration/view');
    expect(await screen.findByTestId('value-daysBackSecondAggregation')).toHaveTextContent('40 days');
    expect(screen.getByTestId('value-defaultAggregation')).toHaveTextContent('Second aggregation');
    expect(screen.getByTestId('config-range')).toHaveTextContent('Valid from 01.01.2026');
    expect(screen.getByText('Comments: Winter')).toBeInTheDocument();
    expect(screen.getByTestId('config-edit')).toBeInTheDocument();
    expect(screen.getByTestId('config-history')).toHaveAttribute(
      'href',
      `/monitor/processes/segmentshistory?uuid=${CONFIG_UUID}&procedure=metered-energy-aggregation`,
    );
  });

  it('offers no edit to an audit role', async () => {
    mockFetch({
      'GET /api/domain/processing-config/metered-energy-aggregation': list,
      'GET /api/domain/processing-config/energy-outside-train-run': {
        ...list,
        uuid: null,
        procedure: 'energy-outside-train-run',
        segments: [],
        current: { ...segment, id: 0, value: { timeLimitMinutes: 60 }, comments: null },
      },
    });
    renderConfig('/monitor/processes/metered-energy-aggregation/configuration/view', [
      'audit-settlement-area-responsible',
    ]);
    await screen.findByTestId('value-daysBackFirstAggregation');
    expect(screen.queryByTestId('config-edit')).not.toBeInTheDocument();
  });

  it('shows the defaults and no edit for energy outside train run', async () => {
    mockFetch({
      'GET /api/domain/processing-config/energy-outside-train-run': {
        ...list,
        uuid: null,
        procedure: 'energy-outside-train-run',
        segments: [],
        current: { ...segment, id: 0, value: { timeLimitMinutes: 60 }, comments: null },
      },
    });
    renderConfig('/monitor/processes/energy-outside-train-run/configuration/view', ['erex-administrator']);
    expect(await screen.findByTestId('value-timeLimitMinutes')).toHaveTextContent('60 minutes');
    expect(screen.getByText('No configuration is stored; the defaults are used.')).toBeInTheDocument();
    expect(screen.queryByTestId('config-edit')).not.toBeInTheDocument();
    expect(screen.queryByTestId('config-history')).not.toBeInTheDocument();
  });

  it('shows a number in the separators of the user’s language with its unit (issue 18 item 2)', async () => {
    await setLanguage('nb');
    try {
      const value = {
        minGrossWeightPerVehicleTonnes: 5,
        maxGrossWeightPerVehicleTonnes: 1234.5,
        maxDaysLate: 5,
        estimationMethod: 'reported-train-consumption-with-track',
      };
      const preprocessing = { ...segment, value };
      mockFetch({
        'GET /api/domain/processing-config/train-preprocessing': {
          ...list,
          procedure: 'train-preprocessing',
          segments: [preprocessing],
          current: preprocessing,
        },
      });
      renderConfig('/monitor/processes/train-preprocessing/configuration/view');
      const max = await screen.findByTestId('value-maxGrossWeightPerVehicleTonnes');
      await waitFor(() => expect(max.textContent?.replace(/[\u00a0\u202f]/g, ' ')).toBe('1 234,5 tonn'));
    } finally {
      await setLanguage('en');
    }
  });

  it("names train preprocessing's estimation method and offers the three estimations by their names", async () => {
    const user = userEvent.setup();
    const value = {
      minGrossWeightPerVehicleTonnes: 5,
      maxGrossWeightPerVehicleTonnes: 200,
      maxDaysLate: 5,
      estimationMethod: 'reported-train-consumption-with-track',
    };
    const preprocessing = { ...segment, value };
    mockFetch({
      'GET /api/domain/processing-config/train-preprocessing': {
        ...list,
        procedure: 'train-preprocessing',
        segments: [preprocessing],
        current: preprocessing,
      },
    });
    renderConfig('/monitor/processes/train-preprocessing/configuration/view');
    expect(await screen.findByTestId('value-estimationMethod')).toHaveTextContent(
      'Reported train consumption with track',
    );
    expect(screen.getByText('Estimation method')).toBeInTheDocument();

    await user.click(screen.getByTestId('config-edit'));
    const method = await screen.findByRole('textbox', { name: 'Estimation method' });
    expect(method).toHaveValue('Reported train consumption with track');
    await user.click(method);
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
        'Reported train consumption',
        'Reported train consumption with track',
        'Payload with train profile',
      ]),
    );
  });

  it('refuses second aggregation days not above the first, then saves from the chosen day', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'GET /api/domain/processing-config/metered-energy-aggregation': list,
      'POST /api/domain/processing-config/metered-energy-aggregation': list,
    });
    renderConfig('/monitor/processes/metered-energy-aggregation/configuration/edit');
    const second = await screen.findByLabelText('Days back in time for second aggregation (days)');
    await user.clear(second);
    await user.type(second, '5');
    await user.type(screen.getByLabelText(/Valid from/), '01.03.2026');
    await user.type(screen.getByLabelText('Comments'), 'Spring');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(SECOND_AGGREGATION_MESSAGE)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(second);
    await user.type(second, '45');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(
        '/monitor/processes/metered-energy-aggregation/configuration/view',
      ),
    );
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      tpa: false,
      validFrom: '2026-02-28T23:00:00Z',
      comments: 'Spring',
      value: { daysBackFirstAggregation: 5, daysBackSecondAggregation: 45, defaultAggregation: 'SECOND' },
    });
  });

  it('lists every version of a configuration, the replaced ones marked', async () => {
    const version = (id: number, start: string, end: string, days: number, supersededAt: string | null): Segment => ({
      id,
      name: 'metered-energy-aggregation',
      timeRange: { start, end },
      active: true,
      state: 'ACTIVE',
      comments: null,
      lastModified: '2026-01-02T10:00:00.000Z',
      lastModifiedBy: 'kari',
      attributes: { daysBackFirstAggregation: 5, daysBackSecondAggregation: days, defaultAggregation: 'SECOND' },
      supersededAt,
    });
    mockFetch({
      [`GET /api/domain/settlementconfiguration/versions/${CONFIG_UUID}`]: [
        version(1, '1970-01-01T00:00:00.000Z', '2070-01-01T00:00:00.000Z', 40, '2026-01-02T10:00:00.000Z'),
        version(2, '1970-01-01T00:00:00.000Z', '2026-02-28T23:00:00.000Z', 40, null),
        version(3, '2026-02-28T23:00:00.000Z', '2070-01-01T00:00:00.000Z', 45, null),
      ],
    });
    renderConfig(`/monitor/processes/segmentshistory?uuid=${CONFIG_UUID}&procedure=metered-energy-aggregation`);
    expect(await screen.findAllByTestId('segment-row')).toHaveLength(3);
    expect(screen.getByText('Every version of the Metered energy aggregation configuration.')).toBeInTheDocument();
    expect(screen.getAllByText('Replaced')).toHaveLength(1);
    expect(screen.getByText('45 days')).toBeInTheDocument();
  });
});

describe('configuration routes', () => {
  const child = (route: AppRoute | undefined, path: string) => route?.children?.find((c) => c.path === path);
  it('admit the roles the calls admit: settlement staff view, writers edit', () => {
    const configuration = child(child(child(monitorRoutes, 'processes'), 'cebd-preprocessing'), 'configuration');
    expect([...child(configuration, 'view')!.roles].sort()).toEqual([...PROCESSING_CONFIG_READERS].sort());
    expect([...child(configuration, 'edit')!.roles].sort()).toEqual([...PROCESSING_CONFIG_WRITERS].sort());
    const readOnly = child(child(child(monitorRoutes, 'processes'), 'energy-outside-train-run'), 'configuration');
    expect(child(readOnly, 'edit')).toBeUndefined();
  });
});
