import type { ReactElement, ReactNode } from 'react';
import { render, type RenderOptions } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import ui from '../../locales/en/ui.json';

/** An English i18n instance with the shared blocks' texts (locales/en/ui.json) plus any the test adds. */
export function createTestI18n(extra: Record<string, unknown> = {}): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: { ...ui, ...extra } } } satisfies Resource,
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  return instance;
}

/** Renders shared building blocks the way the app shows them: Mantine (test env) and English texts. */
export function renderUi(ui: ReactElement, options: RenderOptions & { i18n?: I18n } = {}) {
  const i18n = options.i18n ?? createTestI18n();
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <I18nextProvider i18n={i18n}>
      <MantineProvider env="test">{children}</MantineProvider>
    </I18nextProvider>
  );
  return render(ui, { wrapper: Wrapper, ...options });
}
