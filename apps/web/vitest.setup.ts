import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { setI18n } from 'react-i18next';
import { afterEach, beforeEach, vi } from 'vitest';
import { i18n, messagesReady } from './src/lib/i18n';
import { useLastVisitStore } from './src/lib/stores/last-visit-store';

// Test files share a worker's modules (isolate: false in vitest.config.ts), so what one file changes
// in module-level singletons is undone here: the app's i18n instance is react-i18next's default again
// (test-harness's createTestI18n replaces it) and speaks English.
// Stubbed globals and fake timers are put back too, for a file that forgets.
beforeEach(async () => {
  await messagesReady;
  setI18n(i18n);
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  // Module-level stores outlive a test too: a notice shown by one test is not another's alert, and
  // the page a user last visited (persisted, so clearing local storage is not enough) is forgotten.
  notifications.clean();
  useLastVisitStore.setState({ visits: {} });
});

// findBy* and waitFor give up after 1 s by default: enough for a screen alone, not when CI runs the
// server and web files side by side on two busy cores (a lazy chunk, a chart, several answers). A
// real failure still fails, after 8 s.
configure({ asyncUtilTimeout: 8_000 });

// Tests of plain logic (stores, guards, the API client ...) run without a DOM: they start with the
// comment `// @vitest-environment node`, which saves building a jsdom window for each of them.
if (typeof window !== 'undefined') {
  // Mantine reads these browser APIs that jsdom does not implement.
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      value: (query: string): MediaQueryList =>
        ({
          matches: false,
          media: query,
          onchange: null,
          addListener: () => undefined,
          removeListener: () => undefined,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          dispatchEvent: () => false,
        }) as MediaQueryList,
    });
  }

  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  if (!('ResizeObserver' in window)) {
    Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
  }
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;
  Object.defineProperty(window, 'scrollTo', { writable: true, value: () => undefined });

  afterEach(() => {
    cleanup();
    window.localStorage.clear();
    window.sessionStorage.clear();
  });
}
