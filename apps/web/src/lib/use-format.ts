import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { areaCurrency, type AreaKind } from '@railwatt/contracts';
import {
  formatAmount,
  formatEnergy,
  formatMoney,
  formatNumber,
  formatPercent,
  formatPrice,
  priceUnit,
  type EnergyUnit,
} from './format';
import { useMarketStore } from './stores/market-store';

/**
 * The number formats of lib/format.ts bound to the user's language and the selected area's currency,
 * for screens: `const f = useFormat(); f.amount(line.dueCost)` -> "1 234,50 NOK" in Norwegian.
 */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const currency = areaCurrency(useMarketStore((s) => s.area?.kind));
  return useMemo(
    () => ({
      language,
      currency,
      /** "NOK/MWh" */
      priceUnit: priceUnit(currency),
      number: (value: number | null | undefined) => formatNumber(value, language),
      percent: (value: number | null | undefined) => formatPercent(value, language),
      money: (value: number | null | undefined) => formatMoney(value, currency, language),
      amount: (value: number | null | undefined) => formatAmount(value, currency, language),
      energy: (value: number | null | undefined, unit: EnergyUnit = 'kWh') => formatEnergy(value, unit, language),
      price: (value: number | null | undefined) => formatPrice(value, currency, language),
    }),
    [language, currency],
  );
}

/**
 * An area's name in the user's language (locales/<lng>/format.json `format.areas.<kind>`): "Norge" in
 * Norwegian; the name as the server gives it when there is no translation.
 */
export function useAreaNames(): (area: { kind: AreaKind | string; name: string } | null | undefined) => string {
  const { t } = useTranslation();
  return (area) => (area ? t(`format.areas.${area.kind}`, { defaultValue: area.name }) : '');
}

/** The selected area's name in the user's language. */
export function useAreaName(): string {
  const name = useAreaNames();
  return name(useMarketStore((s) => s.area));
}
