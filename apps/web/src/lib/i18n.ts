import { LANGUAGES, type Language } from '@railwatt/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Where the chosen language is remembered. */
export const LANGUAGE_STORAGE_KEY = 'language';

type Messages = Record<string, unknown>;

/*
 * Every file under locales/<lng>/ (shell, routes, errors, and each feature's own file) is merged into the
 * one default namespace of its language; top-level keys differ per file, so keys stay explicit:
 * 'shell.selectArea', 'api_error_code.unknown', 'routes.fleet.overview'. A file a language lacks falls
 * back to English. The shell's English files (shell, routes, errors, ui, format) ship in the initial bundle; each feature's English file
 * loads in one chunk beside the first screen (`messagesReady`, which every lazy screen waits for), so
 * a new feature's texts never grow the shell's initial JavaScript. Other languages load when chosen.
 */
const englishShell = import.meta.glob<Messages>(
  [
    '../locales/en/shell.json',
    '../locales/en/routes.json',
    '../locales/en/errors.json',
    '../locales/en/ui.json',
    '../locales/en/format.json',
  ],
  { eager: true, import: 'default' },
);
const englishFeatures = import.meta.glob<Messages>(
  [
    '../locales/en/*.json',
    '!../locales/en/shell.json',
    '!../locales/en/routes.json',
    '!../locales/en/errors.json',
    '!../locales/en/ui.json',
    '!../locales/en/format.json',
  ],
  { import: 'default' },
);
const others = import.meta.glob<Messages>(['../locales/*/*.json', '!../locales/en/*.json'], { import: 'default' });

const languageOf = (path: string): string | undefined => /locales\/([^/]+)\//.exec(path)?.[1];

const merge = (files: Messages[]): Messages => Object.assign({}, ...files) as Messages;

const loadEnglishFeatures = async (): Promise<Messages> =>
  merge(await Promise.all(Object.values(englishFeatures).map((load) => load())));

/** All messages of one language (loads the files that are not in the initial bundle). */
export async function loadMessages(language: Language): Promise<Messages> {
  if (language === 'en') return merge([...Object.values(englishShell), await loadEnglishFeatures()]);
  const loaders = Object.entries(others).filter(([path]) => languageOf(path) === language);
  return merge(await Promise.all(loaders.map(([, load]) => load())));
}

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

async function ensureLoaded(language: Language): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  i18n.addResourceBundle(language, 'translation', await loadMessages(language), true, true);
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: merge(Object.values(englishShell)) } },
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  initAsync: false,
  showSupportNotice: false,
});

/** Switches language (loading it first) and remembers the choice in local storage. */
export async function setLanguage(language: Language): Promise<void> {
  window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  await ensureLoaded(language);
  await i18n.changeLanguage(language);
}

/** Resolves once every feature's English texts are in (lib/routes.ts lazyScreen waits for it). */
export const messagesReady: Promise<void> = loadEnglishFeatures().then((messages) => {
  i18n.addResourceBundle('en', 'translation', messages, true, false);
});

const initial = storedLanguage();
if (initial !== 'en') void ensureLoaded(initial).then(() => i18n.changeLanguage(initial));

export { i18n };
