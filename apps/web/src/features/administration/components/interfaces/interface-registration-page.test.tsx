import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import {
  HOST_KEY,
  interfaceRoute,
  mockFetch,
  OTHER_HOST_KEY,
  renderInterfaces,
  TEST_KEY,
  testedWithHostKey,
} from './testing/render-interfaces';

const BASE = '/api/sftpintegration/interface-configuration';
const TYPES = { [`GET ${BASE}/interface-types`]: ['CEBD', 'UTILTS'] };

afterEach(() => vi.unstubAllGlobals());

const box = (name: RegExp) => screen.getByRole('textbox', { name });

/** Puts text into a field at once (typing each character through Mantine in jsdom is slow on a busy machine). */
async function enter(user: UserEvent, element: HTMLElement, text: string) {
  await user.click(element);
  await user.paste(text);
}

/** Replaces a field's text at once (select all, paste). */
async function replace(user: UserEvent, element: HTMLElement, text: string) {
  await user.tripleClick(element);
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

  it('creates a route with a password: the path gets its slash, empty texts (and no host key) are sent as null', async () => {
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
      hostKeyFingerprint: null,
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

  it('sends an entered host key, and refuses a malformed one with the contract rule before sending', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...TYPES,
      [`POST ${BASE}/create-route`]: interfaceRoute({ hostKeyFingerprint: HOST_KEY }),
    });
    renderInterfaces('/administration/interface/registration');
    await fillRequired(user);
    await enter(user, screen.getByLabelText(/^Password/, { selector: 'input[type="password"]' }), 's3cret');
    const hostKey = screen.getByTestId('hostKeyFingerprint');
    expect(hostKey).toHaveAccessibleName('Host key (SHA256 fingerprint)');
    expect(hostKey).toHaveAttribute('placeholder', 'Not pinned yet');
    // The MD5 form older OpenSSH printed is not what a route pins.
    await enter(user, hostKey, 'MD5:16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'The host key fingerprint must be SHA256: and 43 base64 characters, as ssh-keygen -l prints it',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(hostKey);
    await enter(user, hostKey, ` ${HOST_KEY} `);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === `${BASE}/create-route`)?.body).toMatchObject({
        hostKeyFingerprint: HOST_KEY,
      }),
    );
  });

  it('fills the empty host key field with the key a connection test met, and saving sends it', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...TYPES,
      [`POST ${BASE}/test-connection`]: testedWithHostKey(),
      [`POST ${BASE}/create-route`]: interfaceRoute({ hostKeyFingerprint: HOST_KEY }),
    });
    renderInterfaces('/administration/interface/registration');
    await fillRequired(user);
    await enter(user, screen.getByLabelText(/^Password/, { selector: 'input[type="password"]' }), 's3cret');
    expect(screen.getByTestId('hostKeyFingerprint')).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    const result = await screen.findByTestId('test-connection-result');
    expect(result).toHaveTextContent('Connection succeeded');
    expect(screen.getByTestId('test-connection-host-key')).toHaveTextContent(HOST_KEY);
    expect(screen.getByTestId('test-connection-host-key-filled')).toHaveTextContent(
      'The empty host key field now holds this key: saving the route pins it.',
    );
    expect(screen.queryByTestId('test-connection-host-key-pinned')).toBeNull();
    expect(screen.getByTestId('hostKeyFingerprint')).toHaveValue(HOST_KEY);
    // The test itself named no key: the server accepts whatever it meets.
    const tested = calls.find((c) => c.url.pathname === `${BASE}/test-connection`)!.body as { route: object };
    expect(tested.route).toMatchObject({ hostKeyFingerprint: null });

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === `${BASE}/create-route`)?.body).toMatchObject({
        hostname: 'sftp.example.org',
        hostKeyFingerprint: HOST_KEY,
      }),
    );
  });

  it('shows a host key mismatch in words with the server message, and keeps the pinned key', async () => {
    const user = userEvent.setup();
    const message =
      `The server at sftp.example.org:22 presented the host key ${OTHER_HOST_KEY}, not the route's ${HOST_KEY}: ` +
      'it may have been replaced, or another machine answers in its place.';
    const { calls } = mockFetch({
      ...TYPES,
      [`GET ${BASE}/route-by-routeid`]: interfaceRoute({ hostKeyFingerprint: HOST_KEY }),
      [`POST ${BASE}/test-connection`]: {
        ok: false,
        outcome: 'host_key_mismatch',
        message,
        hostKeyFingerprint: OTHER_HOST_KEY,
      },
      [`POST ${BASE}/update-route`]: interfaceRoute({ hostKeyFingerprint: HOST_KEY }),
    });
    renderInterfaces('/administration/interface/registration?routeId=cebd-in-no');
    await waitFor(() => expect(screen.getByTestId('hostKeyFingerprint')).toHaveValue(HOST_KEY));

    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    const result = await screen.findByTestId('test-connection-result');
    expect(result).toHaveTextContent('Host key mismatch');
    expect(result).toHaveTextContent(message);
    expect(screen.getByTestId('test-connection-host-key')).toHaveTextContent(OTHER_HOST_KEY);
    expect(screen.queryByTestId('test-connection-host-key-filled')).toBeNull();
    // The form's test asks the server to check the pinned key, and the pin is not overwritten.
    const tested = calls.find((c) => c.url.pathname === `${BASE}/test-connection`)!.body as { route: object };
    expect(tested.route).toMatchObject({ hostKeyFingerprint: HOST_KEY });
    expect(screen.getByTestId('hostKeyFingerprint')).toHaveValue(HOST_KEY);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === `${BASE}/update-route`)?.body).toMatchObject({
        hostKeyFingerprint: HOST_KEY,
      }),
    );
  });

  it('clears the pinned key when hostname or port name another server, and restores it on the same one', async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      ...TYPES,
      [`GET ${BASE}/route-by-routeid`]: interfaceRoute({ hostKeyFingerprint: HOST_KEY }),
      [`POST ${BASE}/update-route`]: interfaceRoute({ hostname: 'sftp2.example.org' }),
    });
    renderInterfaces('/administration/interface/registration?routeId=cebd-in-no');
    const hostKey = () => screen.getByTestId('hostKeyFingerprint');
    await waitFor(() => expect(hostKey()).toHaveValue(HOST_KEY));

    await replace(user, box(/^Hostname/), 'sftp2.example.org');
    expect(hostKey()).toHaveValue('');
    // A corrected hostname (any case) is the same server again: its key comes back.
    await replace(user, box(/^Hostname/), 'SFTP.example.org');
    expect(hostKey()).toHaveValue(HOST_KEY);
    await replace(user, box(/^Port/), '2222');
    expect(hostKey()).toHaveValue('');
    await replace(user, box(/^Port/), '22');
    expect(hostKey()).toHaveValue(HOST_KEY);

    await replace(user, box(/^Hostname/), 'sftp2.example.org');
    expect(hostKey()).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === `${BASE}/update-route`)?.body).toMatchObject({
        hostname: 'sftp2.example.org',
        hostKeyFingerprint: null,
      }),
    );
  });
});
