import { LANGUAGES, type Language } from '@railwatt/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import daErrors from '../locales/da/errors.json';
import daRoutes from '../locales/da/routes.json';
import daShell from '../locales/da/shell.json';
import enErrors from '../locales/en/errors.json';
import enRoutes from '../locales/en/routes.json';
import enShell from '../locales/en/shell.json';
import esErrors from '../locales/es/errors.json';
import esRoutes from '../locales/es/routes.json';
import esShell from '../locales/es/shell.json';
import fiErrors from '../locales/fi/errors.json';
import fiRoutes from '../locales/fi/routes.json';
import fiShell from '../locales/fi/shell.json';
import nbErrors from '../locales/nb/errors.json';
import nbRoutes from '../locales/nb/routes.json';
import nbShell from '../locales/nb/shell.json';
import svErrors from '../locales/sv/errors.json';
import svRoutes from '../locales/sv/routes.json';
import svShell from '../locales/sv/shell.json';

/** Where the chosen language is remembered. */
export const LANGUAGE_STORAGE_KEY = 'language';

/**
 * Each language is split in files (shell, routes, errors) whose top-level keys are disjoint; they merge
 * into the one default namespace, so keys stay explicit: 'shell.selectArea', 'api_error_code.unknown'.
 */
export const resources = {
  en: { translation: { ...enShell, ...enRoutes, ...enErrors } },
  da: { translation: { ...daShell, ...daRoutes, ...daErrors } },
  nb: { translation: { ...nbShell, ...nbRoutes, ...nbErrors } },
  sv: { translation: { ...svShell, ...svRoutes, ...svErrors } },
  fi: { translation: { ...fiShell, ...fiRoutes, ...fiErrors } },
  es: { translation: { ...esShell, ...esRoutes, ...esErrors } },
} satisfies Record<Language, { translation: object }>;

const isLanguage = (value: string | null): value is Language =>
  value !== null && (LANGUAGES as readonly string[]).includes(value);

function storedLanguage(): Language {
  try {
    const value = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : 'en';
  } catch {
    return 'en';
  }
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
});

export function setLanguage(language: Language): void {
  window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  void i18n.changeLanguage(language);
}

export { i18n };
