import { eventCodeText } from '@railwatt/contracts';

/** A translator of full keys ('monitor.eventCode.<code>') with a default text. */
type Translate = (key: string, options: { defaultValue: string }) => string;

/**
 * The readable label of an event code, one rule for every screen (the event monitor, a run's events,
 * the dashboard): the translated text of a known code (monitor.eventCode.<code>), else the contracts'
 * English text, else a slug's words ("no-contract-in-price-area" -> "No contract in price area").
 * Numeric codes keep their number in front ("58 Value outside expected limits"): the catalogue and
 * files name them by number.
 */
export function eventCodeLabel(code: string, t: Translate): string {
  const text = t(`monitor.eventCode.${code}`, { defaultValue: eventCodeText(code) });
  if (/^\d+$/.test(code)) return text !== code ? `${code} ${text}` : code;
  if (text !== code) return text;
  const words = code.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
