import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { interfaceRoute, mockFetch, renderInterfaces } from './testing/render-interfaces';

const BASE = '/api/sftpintegration/interface-configuration';

afterEach(() => vi.unstubAllGlobals());

describe('interface configuration (exchange area)', { timeout: 20_000 }, () => {
  it('starts with a new route and opens a stored one in the same editor', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      [`GET ${BASE}/interface-types`]: ['CEBD'],
      [`GET ${BASE}/routeid`]: ['cebd-in-no', 'utilts-out'],
      [`GET ${BASE}/route-by-routeid`]: interfaceRoute({ routeId: 'utilts-out', hostname: 'partner.example' }),
    });
    renderInterfaces('/administration/interface/config/configuration');
    const routeId = await screen.findByRole('textbox', { name: /^Route id/ });
    expect(routeId).toBeEnabled();
    expect(routeId).toHaveValue('');

    await user.click(screen.getByRole('textbox', { name: 'Route' }));
    await user.click(await screen.findByRole('option', { name: 'utilts-out' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Hostname/ })).toHaveValue('partner.example'));
    expect(screen.getByRole('textbox', { name: /^Route id/ })).toBeDisabled();
    expect(calls.find((c) => c.url.pathname === `${BASE}/route-by-routeid`)!.url.searchParams.get('routeId')).toBe(
      'utilts-out',
    );
  });
});
