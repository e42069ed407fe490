import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { interfaceRoute, mockFetch, renderInterfaces, TEST_KEY } from './testing/render-interfaces';

const BASE = '/api/sftpintegration/interface-configuration';
const TYPES = { [`GET ${BASE}/interface-types`]: ['CEBD', 'UTILTS'] };

afterEach(() => vi.unstubAllGlobals());

const box = (name: RegExp) => screen.getByRole('textbox', { name });

/** Puts text into a field at once (typing each character through Mantine in jsdom is slow on a busy machine). */
async function enter(user: UserEvent, element: HTMLElement, text: string) {
  await user.click(element);
  await user.paste(text);
}

async function choose(user: UserEvent, label: RegExp, option: string) {
  await user.click(box(label));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function fillRequired(user: UserEvent) {
  await enter(user, await screen.findByRole('textbox', { name: /^Route id/ }), 'cebd-in-no');
  await choose(user, /^Interface type/, 'CEBD');
  await enter(user, box(/^Hostname/), 'sftp.example.org');
  await enter(user, box(/^Username/), 'railwatt');
  await enter(user, box(/^Path/), 'incoming');
}

// A whole form per test: more room than the default 5 s when the machine is busy.
describe('interface registration', { timeout: 20_000 }, () => {
  it('shows the backup path only for an INTERNAL server with direction IN', async () => {
    const user = userEvent.setup();
    mockFetch(TYPES);
    renderInterfaces('/administration/interface/registration');
    await screen.findByRole('textbox', { name: /^Route id/ });
    // New routes start EXTERNAL + IN: no backup path.
    expect(screen.queryByRole('textbox', { name: /^Backup path/ })).toBeNull();
    await choose(user, /^Server type/, 'Internal');
    expect(box(/^Backup path/)).toBeInTheDocument();
    await enter(user, box(/^Backup path/), 'backup');
    await choose(user, /^Direction/, 'Out');
    expect(screen.queryByRole('textbox', { name: /^Backup path/ })).toBeNull();
    // Shown again, it starts empty: a hidden backup path is dropped, never sent.
    await choose(user, /^Direction/, 'In');
    expect(box(/^Backup path/)).toHaveValue('');
  });

  it('creates a route with a password: the path gets its slash, empty texts are sent as null', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({ ...TYPES, [`POST ${BASE}/create-route`]: interfaceRoute() });
    renderInterfaces('/administration/interface/registration');
    await fillRequired(user);
    await choose(user, /^Server type/, 'Internal');
    await enter(user, box(/^Backup path/), 'backup');
    await enter(user, screen.getByLabelText(/^Password/, { selector: 'input[type="password"]' }), 's3cret');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === `${BASE}/create-route`)).toBe(true));
    expect(calls.find((c) => c.url.pathname === `${BASE}/create-route`)!.body).toEqual({
      routeId: 'cebd-in-no',
      description: null,
      interfaceType: 'CEBD',
      direction: 'IN',
      folder: null,
      serverType: 'INTERNAL',
      username: 'railwatt',
      path: '/incoming',
      backupPath: '/backup',
      hostname: 'sftp.example.org',
      port: 22,
      enabled: true,
      changeComment: null,
      subFolders: [],
      credentials: { password: 's3cret' },
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/administration/interface/overview'));
  });

  it('takes a pasted private key with passphrase, and refuses text that is not a key', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...TYPES,
      [`POST ${BASE}/create-route`]: interfaceRoute({ credentialsKind: 'privateKey' }),
    });
    renderInterfaces('/administration/interface/registration');
    await fillRequired(user);
    await user.click(screen.getByRole('radio', { name: 'Private key' }));
    await enter(user, box(/^Private key\s*\*?$/), 'not a key');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('The private key must be PEM text (-----BEGIN ... PRIVATE KEY-----)'),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === `${BASE}/create-route`)).toBe(false);

    await user.clear(box(/^Private key\s*\*?$/));
    await user.click(box(/^Private key\s*\*?$/));
    await user.paste(TEST_KEY);
    await enter(user, screen.getByLabelText(/^Passphrase/, { selector: 'input[type="password"]' }), 'phrase');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === `${BASE}/create-route`)?.body).toMatchObject({
        credentials: { privateKey: TEST_KEY, passphrase: 'phrase' },
      }),
    );
  });

  it('reads the private key from a file', async () => {
    const user = userEvent.setup();
    mockFetch(TYPES);
    const { container } = renderInterfaces('/administration/interface/registration');
    await screen.findByRole('textbox', { name: /^Route id/ });
    await user.click(screen.getByRole('radio', { name: 'Private key' }));
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File([TEST_KEY], 'id_ed25519', { type: 'text/plain' }));
    await waitFor(() => expect(box(/^Private key\s*\*?$/)).toHaveValue(TEST_KEY));
  });

  it('shows the server refusal of a taken route id on its field', async () => {
    const user = userEvent.setup();
    mockFetch({
      ...TYPES,
      [`POST ${BASE}/create-route`]: new Response(
        JSON.stringify({
          status: 400,
          error: 'Bad Request',
          code: 'uniquename',
          errors: [{ field: 'routeId', message: 'An interface route with this route id already exists' }],
        }),
        { status: 400 },
      ),
    });
    renderInterfaces('/administration/interface/registration');
    await fillRequired(user);
    await enter(user, screen.getByLabelText(/^Password/, { selector: 'input[type="password"]' }), 's3cret');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('An interface route with this route id already exists')).toBeInTheDocument();
  });

  it('edits a stored route without sending credentials unless they are replaced, and tests the form', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...TYPES,
      [`GET ${BASE}/route-by-routeid`]: interfaceRoute({ credentialsKind: 'privateKey' }),
      [`POST ${BASE}/update-route`]: interfaceRoute(),
      [`POST ${BASE}/test-connection`]: {
        ok: false,
        outcome: 'path_missing',
        message: 'The path /incoming does not exist',
      },
    });
    renderInterfaces('/administration/interface/registration?routeId=cebd-in-no');
    expect(await screen.findByRole('textbox', { name: /^Route id/ })).toBeDisabled();
    expect(box(/^Backup path/)).toHaveValue('/backup');
    expect(screen.queryByLabelText(/^Password/, { selector: 'input[type="password"]' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByTestId('test-connection-result')).toHaveTextContent('Path missing');
    const tested = calls.find((c) => c.url.pathname === `${BASE}/test-connection`)!.body as { route: object };
    expect(tested.route).not.toHaveProperty('credentials');

    await enter(user, box(/^Change comment/), 'New host');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === `${BASE}/update-route`)?.body).toMatchObject({
        routeId: 'cebd-in-no',
        changeComment: 'New host',
      }),
    );
    expect(calls.find((c) => c.url.pathname === `${BASE}/update-route`)!.body).not.toHaveProperty('credentials');
  });
});
