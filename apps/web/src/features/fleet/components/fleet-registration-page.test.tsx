import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, renderFleet } from '../testing/render-fleet';
import { organisation, UUID, versionedEntity } from '../testing/fixtures';

const lookups = {
  'GET /api/domain/tractionunittype/minimal/all': [
    {
      uuid: UUID.type,
      name: 'El 18',
      type: 'TractionUnitType',
      active: true,
      state: 'ACTIVE',
      timeRange: { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
    },
  ],
  'GET /api/domain/organisations': [organisation(UUID.ownerA, 'Vy')],
};

afterEach(() => vi.unstubAllGlobals());

describe('fleet registration', () => {
  it('shows the verbatim validation messages of product.md §5', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(lookups);
    renderFleet('/fleet/registration');
    await user.click(await screen.findByRole('button', { name: 'Save' }));

    expect(await screen.findByText('The Name field is required')).toBeInTheDocument();
    expect(screen.getByText('The EVN field is required')).toBeInTheDocument();
    expect(screen.getByText('The Owner field is required')).toBeInTheDocument();
    expect(screen.getByText('The Type field is required')).toBeInTheDocument();
    expect(screen.getByText('The NVR field is required')).toBeInTheDocument();
    expect(screen.getByText('The Channels field is required')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^EVN/), '12345');
    await user.type(screen.getByLabelText(/^Channels/), '100');
    await user.type(screen.getByLabelText(/^VKM/), 'ABCDEFG');
    // NVR is the register's two-letter country code (contract NVR_PATTERN), not the numeric UIC code.
    await user.type(screen.getByLabelText(/^NVR/), '76');
    expect(await screen.findByText('The EVN field must be exactly 12 digits')).toBeInTheDocument();
    expect(await screen.findByText('The NVR field format is invalid')).toBeInTheDocument();
    expect(screen.getByText('The Channels field must be 99 or less')).toBeInTheDocument();
    expect(screen.getByText('The VKM field may not be greater than 5 characters')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'New type' }));
    await user.type(screen.getByLabelText('Max speed (km/h)'), 'fast');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The Max speed (km/h) field must be a decimal')).toBeInTheDocument();
    expect(screen.getByText('The Type name field is required')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/domain/tractionunit/save')).toBe(false);
  });

  it('saves unit, type ref and consumption points together, showing the CPID as NVR_VKM_EVN plus EMS id', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...lookups,
      'POST /api/domain/tractionunit/save': versionedEntity({ uuid: UUID.unitA }),
    });
    renderFleet('/fleet/registration');
    await user.type(await screen.findByLabelText(/^Name/), 'El18-2241');
    await user.type(screen.getByLabelText(/^EVN/), '917600100015');
    await user.click(screen.getByRole('textbox', { name: /^Owner/ }));
    await user.click(await screen.findByRole('option', { name: 'Vy' }));
    await user.click(screen.getByRole('textbox', { name: /^Type/ }));
    await user.click(await screen.findByRole('option', { name: 'El 18' }));
    const cp = screen.getByTestId('cp-row');
    await user.type(within(cp).getByLabelText(/^NVR/), 'NO');
    await user.type(within(cp).getByLabelText(/^VKM/), 'NSB');
    await user.type(within(cp).getByLabelText(/^EMS id/), 'EMS1');
    await user.type(within(cp).getByLabelText(/^Channels/), '2');
    expect(within(cp).getByTestId('cp-cpid')).toHaveTextContent('NO_NSB_917600100015_EMS1');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/fleet/overview'));
    const save = calls.find((c) => c.url.pathname === '/api/domain/tractionunit/save')!;
    expect(save.body).toMatchObject({
      tractionUnit: {
        type: 'TractionUnit',
        name: 'El18-2241',
        evn: '917600100015',
        owner: UUID.ownerA,
        tractionUnitTypeRef: UUID.type,
        timeRange: { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
      },
      consumptionPoints: [
        {
          type: 'ConsumptionPoint',
          name: '917600100015EMS1',
          nvr: 'NO',
          vkm: 'NSB',
          emsId: 'EMS1',
          channels: 2,
          energyTypes: ['ACTIVE_CONSUMED', 'ACTIVE_REGENERATED'],
        },
      ],
    });
  });

  it('shows the other-exchange-admin refusal and the name-uniqueness message from the server', async () => {
    const user = userEvent.setup();
    let answer = 0;
    mockFetch({
      ...lookups,
      'POST /api/domain/tractionunit/save': () =>
        answer++ === 0
          ? new Response(JSON.stringify({ status: 403, error: 'Forbidden' }), { status: 403, statusText: 'Forbidden' })
          : new Response(
              JSON.stringify({
                status: 400,
                error: 'Bad Request',
                code: 'uniquename',
                message: 'The chosen name already exists for another entity. Please choose a new name',
              }),
              { status: 400, statusText: 'Bad Request' },
            ),
    });
    renderFleet('/fleet/registration');
    await user.type(await screen.findByLabelText(/^Name/), 'El18-2241');
    await user.type(screen.getByLabelText(/^EVN/), '917600100015');
    await user.click(screen.getByRole('textbox', { name: /^Owner/ }));
    await user.click(await screen.findByRole('option', { name: 'Vy' }));
    await user.click(screen.getByRole('textbox', { name: /^Type/ }));
    await user.click(await screen.findByRole('option', { name: 'El 18' }));
    await user.click(screen.getByRole('button', { name: 'Remove consumption point' }));

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('registration-server-errors')).toHaveTextContent(
      'Not allowed to update traction unit connected to other Exchange admin',
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByTestId('registration-server-errors')).toHaveTextContent(
        'The chosen name already exists for another entity. Please choose a new name',
      ),
    );
  });

  it('loads a unit with its consumption points for editing and saves a change from a date', async () => {
    const user = userEvent.setup();
    const base = {
      type: 'TractionUnit',
      active: true,
      state: 'ACTIVE',
      timeRange: { start: '1970-01-01T00:00:00Z', end: '2070-01-01T00:00:00Z' },
      segments: [],
      lastModified: '2024-01-01T00:00:00Z',
      lastModifiedBy: 'keeper',
      comments: null,
      allInactive: false,
    };
    const { calls } = mockFetch({
      ...lookups,
      [`GET /api/domain/tractionunit/id/${UUID.unitA}`]: {
        ...base,
        uuid: UUID.unitA,
        name: 'El18-2241',
        evn: '917600100015',
        owner: UUID.ownerA,
        tractionUnitTypeRef: UUID.type,
        consumptionPointRefs: [UUID.cp],
      },
      [`GET /api/domain/consumptionpoint/id/${UUID.cp}`]: {
        ...base,
        type: 'ConsumptionPoint',
        uuid: UUID.cp,
        name: '917600100015EMS1',
        nvr: 'NO',
        vkm: 'NSB',
        emsId: 'EMS1',
        emsType: null,
        channels: 2,
        energyTypes: ['ACTIVE_CONSUMED'],
      },
      'POST /api/domain/tractionunit/save': versionedEntity({ uuid: UUID.unitA }),
    });
    renderFleet(`/fleet/registration?uuid=${UUID.unitA}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit traction unit' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^EVN/)).toHaveValue('917600100015');
    expect(screen.getByTestId('cp-cpid')).toHaveTextContent('NO_NSB_917600100015_EMS1');

    await user.type(screen.getByLabelText('Valid from'), '01.05.2024');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/domain/tractionunit/save')).toBe(true));
    const save = calls.find((c) => c.url.pathname === '/api/domain/tractionunit/save')!;
    expect(save.body).toMatchObject({
      tractionUnit: {
        uuid: UUID.unitA,
        owner: UUID.ownerA,
        timeRange: { start: '2024-04-30T22:00:00Z', end: '2070-01-01T00:00:00Z' },
      },
      consumptionPoints: [{ uuid: UUID.cp, channels: 2, energyTypes: ['ACTIVE_CONSUMED'] }],
    });
  });

  const fillUnit = async (user: ReturnType<typeof userEvent.setup>, evn: string) => {
    await user.type(await screen.findByLabelText(/^Name/), 'El18-2241');
    await user.type(screen.getByLabelText(/^EVN/), evn);
    await user.click(screen.getByRole('textbox', { name: /^Owner/ }));
    await user.click(await screen.findByRole('option', { name: 'Vy' }));
    await user.click(screen.getByRole('textbox', { name: /^Type/ }));
    await user.click(await screen.findByRole('option', { name: 'El 18' }));
    await user.click(screen.getByRole('button', { name: 'Remove consumption point' }));
  };

  it("shows a duplicate EVN's 'Property must be unique' once, on the EVN field", async () => {
    const user = userEvent.setup();
    mockFetch({
      ...lookups,
      'POST /api/domain/tractionunit/save': () =>
        new Response(
          JSON.stringify({
            status: 400,
            error: 'Bad Request',
            code: 'uniqueproperties',
            message: 'evn: Property must be unique',
            errors: [{ code: 'uniqueproperties', field: 'evn', message: 'evn: Property must be unique' }],
          }),
          { status: 400, statusText: 'Bad Request' },
        ),
    });
    renderFleet('/fleet/registration');
    await fillUnit(user, '917600100015');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const evn = screen.getByLabelText(/^EVN/);
    await waitFor(() => expect(evn).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getAllByText(/Property must be unique/)).toHaveLength(1);
    expect(evn.getAttribute('aria-describedby')).toBeTruthy();
    expect(
      document.getElementById(
        evn
          .getAttribute('aria-describedby')!
          .split(' ')
          .find((id) => id.endsWith('-error'))!,
      ),
    ).toHaveTextContent(/^Property must be unique$/);
    expect(screen.queryByTestId('registration-server-errors')).not.toBeInTheDocument();
  });

  it('refuses a wrong UIC check digit and a lower-case VKM with the spec messages before sending', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch(lookups);
    renderFleet('/fleet/registration');
    await user.type(await screen.findByLabelText(/^EVN/), '917600100013');
    await user.type(screen.getByLabelText(/^VKM/), 'nsb');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The EVN field is not valid')).toBeInTheDocument();
    expect(screen.getByText('The VKM field format is invalid')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/domain/tractionunit/save')).toBe(false);

    await user.clear(screen.getByLabelText(/^EVN/));
    await user.type(screen.getByLabelText(/^EVN/), '917600100015');
    await waitFor(() => expect(screen.queryByText('The EVN field is not valid')).not.toBeInTheDocument());
  });

  describe('as a vehicle keeper', () => {
    const organisations = ({ url }: { url: URL }) =>
      url.searchParams.get('ownerChoices') === 'true'
        ? [organisation(UUID.ownerA, 'Vy')]
        : [organisation(UUID.ownerA, 'Vy'), organisation(UUID.ownerB, 'Railcare Norge AS')];
    const unitOf = (owner: string) =>
      versionedEntity({
        uuid: UUID.unitB,
        name: 'El18-2242',
        evn: '917600100023',
        owner,
        tractionUnitTypeRef: UUID.type,
        consumptionPointRefs: [],
      });

    it('offers only its own organisations as owners', async () => {
      const user = userEvent.setup();
      const { calls } = mockFetch({ ...lookups, 'GET /api/domain/organisations': organisations });
      renderFleet('/fleet/registration');
      await user.click(await screen.findByRole('textbox', { name: /^Owner/ }));
      expect(await screen.findByRole('option', { name: 'Vy' })).toBeInTheDocument();
      expect(screen.queryByRole('option', { name: 'Railcare Norge AS' })).not.toBeInTheDocument();
      expect(calls.some((c) => c.url.searchParams.get('ownerChoices') === 'true')).toBe(true);
    });

    it("opens another organisation's unit read-only: its owner shown, no save", async () => {
      mockFetch({
        ...lookups,
        'GET /api/domain/organisations': organisations,
        [`GET /api/domain/tractionunit/id/${UUID.unitB}`]: unitOf(UUID.ownerB),
      });
      renderFleet(`/fleet/registration?uuid=${UUID.unitB}`);
      expect(await screen.findByTestId('registration-read-only')).toHaveTextContent(
        'This unit belongs to another organisation: you can view it but not change it.',
      );
      await waitFor(() => expect(screen.getByRole('textbox', { name: /^Owner/ })).toHaveValue('Railcare Norge AS'));
      expect(screen.getByLabelText(/^EVN/)).toBeDisabled();
      expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    });

    it('edits its own unit', async () => {
      mockFetch({
        ...lookups,
        'GET /api/domain/organisations': organisations,
        [`GET /api/domain/tractionunit/id/${UUID.unitB}`]: unitOf(UUID.ownerA),
      });
      renderFleet(`/fleet/registration?uuid=${UUID.unitB}`);
      expect(await screen.findByRole('button', { name: 'Save' })).toBeEnabled();
      expect(screen.queryByTestId('registration-read-only')).not.toBeInTheDocument();
      expect(screen.getByLabelText(/^EVN/)).toBeEnabled();
    });
  });
});
