import { MantineProvider } from '@mantine/core';
import type { Role } from '@railwatt/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useMarketStore } from '../lib/stores/market-store';
import { SectionMenu } from './section-menu';
import { NORWAY_AREA as NORWAY } from '../lib/testing/areas';

function renderAt(path: string, roles: Role[]) {
  useMarketStore.setState({ areas: [NORWAY], area: NORWAY, timeZone: NORWAY.timeZone, rolesInArea: roles });
  const router = createMemoryRouter([{ path: '*', element: <SectionMenu /> }], { initialEntries: [path] });
  render(
    <MantineProvider env="test">
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return router;
}

// The store is shared by the test files of a worker: start and leave it without an area.
const noArea = () => useMarketStore.setState({ areas: [], area: null, timeZone: null, rolesInArea: [] });
beforeEach(noArea);
afterEach(noArea);

describe('the section menu', () => {
  it("lists the current section's pages in a named landmark and marks the open one", () => {
    renderAt('/monitor/eventmonitor', ['settlement-area-responsible']);
    const nav = screen.getByRole('navigation', { name: 'Monitor pages' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(
      expect.arrayContaining(['Data log', 'Processes', 'Event monitor', 'Parameter overview']),
    );
    expect(within(nav).getByRole('link', { name: 'Event monitor' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Processes' })).toHaveAttribute('href', '/monitor/processes');
    expect(links.filter((l) => l.getAttribute('aria-current') === 'page')).toHaveLength(1);
  });

  it('marks the page a deeper path belongs to, and titles process pages with the process', () => {
    renderAt('/monitor/processes/combine/log', ['erex-administrator']);
    const nav = screen.getByRole('navigation', { name: 'Monitor pages' });
    expect(within(nav).getByRole('link', { name: 'Processes' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: /dead letter queue/ })).toHaveAttribute(
      'href',
      '/monitor/processes/combine/deadletterqueue',
    );
  });

  it('moves to the page clicked, reachable by keyboard', async () => {
    const router = renderAt('/infrastructure/entity/overview', ['erex-administrator']);
    const nav = screen.getByRole('navigation', { name: 'Infrastructure pages' });
    const user = userEvent.setup();
    await user.tab();
    expect(within(nav).getByRole('link', { name: 'Entity overview' })).toHaveFocus();
    await user.click(within(nav).getByRole('link', { name: 'Areas overview' }));
    expect(router.state.location.pathname).toBe('/infrastructure/areas/overview');
    expect(within(nav).getByRole('link', { name: 'Areas overview' })).toHaveAttribute('aria-current', 'page');
  });

  it("offers a consumer only the pages it may open, and nothing outside a section's pages", () => {
    renderAt('/infrastructure/entity/overview', ['consumer']);
    const nav = screen.getByRole('navigation', { name: 'Infrastructure pages' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Entity overview', 'Areas overview']);
  });

  it("lists Administration's many pages as a side menu under headings, the open one marked", () => {
    renderAt('/administration/user/overview', ['erex-administrator']);
    const nav = screen.getByRole('navigation', { name: 'Administration pages' });
    const users = within(nav).getByRole('list', { name: 'Users' });
    expect(
      within(users)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual([
      'User overview',
      'User registration',
      'Users across settlement areas',
      'Register user across settlement areas',
    ]);
    expect(within(users).getByRole('link', { name: 'User overview' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('list', { name: 'Entities' })).toBeInTheDocument();
    expect(within(nav).getByRole('list', { name: 'Operations' })).toBeInTheDocument();
  });

  it('shows nothing on a page outside the menu sections', () => {
    renderAt('/reports', ['erex-administrator']);
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
