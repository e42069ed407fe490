import { createHash } from 'node:crypto';

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

// Colours read at WCAG AA: the orange of "watt" and the focus rings 5.1:1 on white, the footer 5.7:1,
// the fields' borders 4.5:1 (the brand's #f5a623 was 2:1).
const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: linear-gradient(160deg, #0b3d5c, #13294b); }
  main { background: #fff; width: min(360px, 90vw); padding: 32px 32px 24px; border-radius: 8px; box-shadow: 0 12px 32px rgba(0,0,0,.3); }
  h1 { margin: 0 0 4px; font-size: 28px; color: #0b3d5c; letter-spacing: .5px; }
  h1 span { color: #a85a00; }
  p.lead { margin: 0 0 24px; color: #555; }
  label { display: block; margin: 12px 0 4px; font-size: 14px; color: #333; }
  input[type=text], input[type=password] { width: 100%; box-sizing: border-box; padding: 10px; border: 1px solid #767676; border-radius: 4px; font-size: 15px; }
  input:focus { outline: 2px solid #a85a00; outline-offset: 1px; }
  button:focus-visible { outline: 2px solid #a85a00; outline-offset: 2px; }
  button { margin-top: 20px; width: 100%; padding: 11px; background: #0b3d5c; color: #fff; border: 0; border-radius: 4px; font-size: 15px; cursor: pointer; }
  button:hover { background: #13294b; }
  .error { margin: 0 0 12px; padding: 10px; background: #fdecea; color: #8a1c11; border-radius: 4px; font-size: 14px; }
  footer { margin-top: 16px; font-size: 12px; color: #666; text-align: center; }
`;

const layout = (title: string, body: string): string => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;

export interface LoginPageOptions {
  action: string;
  username?: string;
  error?: string;
}

/** The sign-in page; the ids and names match Keycloak's, so browser journeys work against both. */
export function loginPage({ action, username, error }: LoginPageOptions): string {
  return layout(
    'Sign in to Railwatt',
    `<h1>Rail<span>watt</span></h1>
<p class="lead">Sign in to your account</p>
${error ? `<p class="error" id="input-error" role="alert">${escapeHtml(error)}</p>` : ''}
<form id="kc-form-login" method="post" action="${escapeHtml(action)}" autocomplete="off">
  <label for="username">Username</label>
  <input id="username" name="username" type="text" value="${escapeHtml(username ?? '')}" autofocus autocomplete="username" required>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button id="kc-login" name="login" type="submit">Sign in</button>
</form>
<footer>Railway traction energy settlement</footer>`,
  );
}

/** The one inline script of the identity pages: submits the logout form at once (no confirm page). */
export const LOGOUT_SCRIPT = "document.getElementById('op.logoutForm').submit();";
/** CSP source that allows exactly LOGOUT_SCRIPT. */
export const LOGOUT_SCRIPT_CSP = `'sha256-${createHash('sha256').update(LOGOUT_SCRIPT).digest('base64')}'`;

export function logoutPage(form: string): string {
  // logout=yes ends the session at the provider as well, not only at the client.
  const withConfirm = form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>');
  return layout(
    'Signing out of Railwatt',
    `<h1>Rail<span>watt</span></h1>
<p class="lead">Signing out…</p>
${withConfirm}
<noscript><button type="submit" form="op.logoutForm">Sign out</button></noscript>
<script>${LOGOUT_SCRIPT}</script>`,
  );
}

export function errorPage(message: string): string {
  return layout('Railwatt sign-in', `<h1>Rail<span>watt</span></h1><p class="error">${escapeHtml(message)}</p>`);
}
