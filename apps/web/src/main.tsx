import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { AuthRoot, createUserManager } from './lib/auth/auth';
import { loadClientConfig } from './lib/config';
import './lib/i18n';

async function start(): Promise<void> {
  const config = await loadClientConfig();
  const userManager = createUserManager(config);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AuthRoot userManager={userManager}>
        <App />
      </AuthRoot>
    </StrictMode>,
  );
}

start().catch((error: unknown) => console.error('failed to login: could not load /config.json', error));
