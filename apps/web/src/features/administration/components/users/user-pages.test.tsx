import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { User, UserPage } from '@railwatt/contracts';
import { AREAS, mockFetch, renderAdministration } from '../../testing/render-administration';

afterEach(() => vi.unstubAllGlobals());

const ORG_A = '10000000-0000-4000-8000-00000000000a';
const ORG_B = '10000000-0000-4000-8000-00000000000b';
const minimal = (uuid: string, name: string) => ({
  uuid,
  name,
  type: 'organisation',
  active: true,
  state: 'ACTIVE',
  timeRange: { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
});
const norwayOrganisations = [minimal(ORG_A, 'Vy Tog AS'), minimal(ORG_B, 'Bane NOR')];

const storedUser = (extra: Partial<User> = {}): User => ({
  username: 'kari',
  firstName: 'Kari',
  lastName: 'Nordmann',
  email: 'kari@example.org',
  enabled: true,
  attributes: { title: 'Planner', description: null },
  areas: [{ areaId: AREAS.norway, areaName: 'Norway', marketFunctions: ['consumer'], organisations: [ORG_A, ORG_B] }],
  globalMarketFunctions: [],
  ...extra,
});

const page = (users: Partial<User>[]): UserPage => ({
  content: users.map((u) => ({
    username: u.username ?? 'x',
    firstName: u.firstName ?? null,
    lastName: u.lastName ?? null,
    email: null,
    enabled: u.enabled ?? true,
    attributes: {},
    marketFunctions: ['consumer'],
  })),
  totalElements: users.length,
  totalPages: 1,
  number: 0,
  size: 10,
});

async function pickOptions(user: ReturnType<typeof userEvent.setup>, label: string, options: string[]) {
  await user.click(screen.getByRole('textbox', { name: label }));
  for (const name of options) await user.click(await screen.findByRole('option', { name }));
  await user.keyboard('{Escape}');
}

describe('user registration', () => {
  it('sends active as enabled, title and description as attributes, the relations and the initial password', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      [`GET /api/domain/organisations/tenant/${AREAS.norway}`]: norwayOrganisations,
      'POST /api/domain/users/save': storedUser({ username: 'ola' }),
      'POST /api/domain/users/all-in-tenant': page([]),
    });
    renderAdministration('/administration/user/registration');

    await user.type(await screen.findByLabelText(/Username/), 'ola');
    await user.type(screen.getByLabelText('First name'), 'Ola');
    await user.type(screen.getByLabelText('Last name'), 'Nordmann');
    await user.type(screen.getByLabelText('E-mail'), 'ola@example.org');
    await user.type(screen.getByLabelText('Title'), 'Planner');
    await user.type(screen.getByLabelText('Description'), 'Night shift');
    await pickOptions(user, 'Market functions', ['Consumer']);
    await pickOptions(user, 'Organisations', ['Vy Tog AS']);
    await user.type(screen.getByLabelText('Password'), 'initial-Pa55');

    // product.md §5: one relation is not enough in a settlement area.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Saving a settlement-area user needs at least two organisation relations'),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/domain/users/save')).toBe(false);

    await pickOptions(user, 'Organisations', ['Bane NOR']);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/users/save')).toBe(true));
    const save = calls.find((c) => c.url.pathname === '/api/domain/users/save')!;
    expect(save.body).toEqual({
      username: 'ola',
      firstName: 'Ola',
      lastName: 'Nordmann',
      email: 'ola@example.org',
      enabled: true,
      attributes: { title: 'Planner', description: 'Night shift' },
      areas: [{ areaId: AREAS.norway, marketFunctions: ['consumer'], organisations: [ORG_A, ORG_B] }],
      password: 'initial-Pa55',
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/administration/user/overview'));
    expect(await screen.findByText('The user was saved')).toBeInTheDocument();
    // A long form typed key by key: more than the default 5 s on a loaded machine.
  }, 30_000);

  it('does not let a user with several settlement areas be edited on the user page', async () => {
    mockFetch({
      [`GET /api/domain/organisations/tenant/${AREAS.norway}`]: norwayOrganisations,
      'GET /api/domain/users/kari': storedUser({
        areas: [
          { areaId: AREAS.norway, marketFunctions: ['consumer'], organisations: [ORG_A, ORG_B] },
          { areaId: AREAS.sweden, marketFunctions: ['consumer'], organisations: [ORG_A, ORG_B] },
        ],
      }),
    });
    renderAdministration('/administration/user/registration?username=kari');
    const warning = await screen.findByTestId('several-settlement-areas');
    expect(
      within(warning).getByText('Users with several settlement areas cannot be edited on the user page'),
    ).toBeInTheDocument();
    expect(within(warning).getByRole('link', { name: 'Edit across settlement areas' })).toHaveAttribute(
      'href',
      '/administration/user/registeracrosssettlementareas?username=kari',
    );
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByLabelText(/Username/)).toBeDisabled();
  });

  it('edits a user and resets the password, showing the new one once', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      [`GET /api/domain/organisations/tenant/${AREAS.norway}`]: norwayOrganisations,
      'GET /api/domain/users/kari': storedUser(),
      'POST /api/domain/users/resetPassword': { username: 'kari', password: 'generated-secret-1234' },
      'POST /api/domain/users/edit': storedUser({ enabled: false }),
      'POST /api/domain/users/all-in-tenant': page([]),
    });
    renderAdministration('/administration/user/registration?username=kari');
    await user.click(await screen.findByRole('button', { name: 'Reset password' }));
    expect(await screen.findByTestId('new-password')).toHaveTextContent('generated-secret-1234');

    await user.click(screen.getByLabelText('Active'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/users/edit')).toBe(true));
    const edit = calls.find((c) => c.url.pathname === '/api/domain/users/edit')!;
    expect(edit.body).toMatchObject({ username: 'kari', enabled: false, attributes: { title: 'Planner' } });
    expect(edit.body).not.toHaveProperty('password');
  });

  it('registers across areas with relations per area (erex-administrator)', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      [`GET /api/domain/organisations/tenant/${AREAS.norway}`]: norwayOrganisations,
      [`GET /api/domain/organisations/tenant/${AREAS.administration}`]: [],
      'POST /api/domain/users/save': storedUser({ username: 'multi' }),
      'POST /api/domain/users/all-across-tenants': page([]),
    });
    renderAdministration('/administration/user/registeracrosssettlementareas');
    await user.type(await screen.findByLabelText(/Username/), 'multi');
    await pickOptions(user, 'Organisations', ['Vy Tog AS', 'Bane NOR']);
    await user.click(screen.getByRole('textbox', { name: 'Settlement area' }));
    await user.click(await screen.findByRole('option', { name: 'Administration' }));
    await user.click(screen.getByRole('button', { name: 'Add area' }));
    expect(await screen.findAllByTestId('user-area')).toHaveLength(2);
    await user.click(screen.getByLabelText('Set an initial password'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/users/save')).toBe(true));
    const save = calls.find((c) => c.url.pathname === '/api/domain/users/save')!;
    expect(save.body).toMatchObject({
      username: 'multi',
      areas: [
        { areaId: AREAS.norway, organisations: [ORG_A, ORG_B] },
        { areaId: AREAS.administration, organisations: [] },
      ],
    });
    expect(save.body).not.toHaveProperty('password');
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/administration/user/viewacrosssettlementareas'),
    );
  }, 30_000);
});

describe('user registration by a settlement-area responsible', () => {
  it('offers every market function except the administrator function, in its own area only', async () => {
    const user = userEvent.setup();
    mockFetch({ [`GET /api/domain/organisations/tenant/${AREAS.norway}`]: norwayOrganisations });
    renderAdministration('/administration/user/registration', { roles: ['settlement-area-responsible'] });
    await user.click(await screen.findByRole('textbox', { name: 'Market functions' }));
    expect(await screen.findByRole('option', { name: 'Consumer' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'eRex administrator' })).not.toBeInTheDocument();
    expect(screen.getAllByTestId('user-area')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Add area' })).not.toBeInTheDocument();
  });
});

describe('user overview', () => {
  it('searches, filters inactive users and disables the selected users through edit-all', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      'POST /api/domain/users/all-in-tenant': page([
        { username: 'kari', firstName: 'Kari' },
        { username: 'ola', firstName: 'Ola' },
      ]),
      'POST /api/domain/users/edit-all': { usernames: ['kari'], enabled: false },
    });
    renderAdministration('/administration/user/overview');
    expect(await screen.findAllByTestId('user-row')).toHaveLength(2);
    const lists = () => calls.filter((c) => c.url.pathname === '/api/domain/users/all-in-tenant');
    expect(lists()[0]!.body).toEqual({ searchString: '', active: true, inactive: false });
    expect(lists()[0]!.url.searchParams.get('page')).toBe('0');

    await user.type(screen.getByLabelText('Search'), 'kar');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(lists().at(-1)!.body).toMatchObject({ searchString: 'kar' }));
    await user.click(screen.getByLabelText('Inactive'));
    await waitFor(() => expect(lists().at(-1)!.body).toEqual({ searchString: 'kar', active: true, inactive: true }));
    expect(screen.getByTestId('location')).toHaveTextContent('search=kar&inactive=true');

    const [first] = await screen.findAllByTestId('user-row');
    await user.click(within(first!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/users/edit-all')).toBe(true));
    expect(calls.find((c) => c.url.pathname === '/api/domain/users/edit-all')!.body).toEqual({
      usernames: ['kari'],
      enabled: false,
    });
    expect(await screen.findByText('The selected users were disabled')).toBeInTheDocument();
  });

  it('lists every user across areas for the administrator and links rows to the across-areas form', async () => {
    const { calls } = mockFetch({ 'POST /api/domain/users/all-across-tenants': page([{ username: 'kari' }]) });
    renderAdministration('/administration/user/viewacrosssettlementareas');
    const [row] = await screen.findAllByTestId('user-row');
    expect(within(row!).getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      '/administration/user/registeracrosssettlementareas?username=kari',
    );
    expect(calls[0]!.url.pathname).toBe('/api/domain/users/all-across-tenants');
  });

  it('offers no enable, disable or reset to a settlement-area responsible', async () => {
    mockFetch({ 'POST /api/domain/users/all-in-tenant': page([{ username: 'kari' }]) });
    renderAdministration('/administration/user/overview', { roles: ['settlement-area-responsible'] });
    await screen.findAllByTestId('user-row');
    expect(screen.queryByRole('button', { name: 'Disable' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reset password' })).not.toBeInTheDocument();
  });
});
