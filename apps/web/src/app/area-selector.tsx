import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMarketStore } from '../lib/stores/market-store';
import { useAreaNames } from '../lib/use-format';
import { useAreaSwitch } from './use-area-switch';

/** The settlement-area selector in the header (product.md §1). */
export function AreaSelector() {
  const { t } = useTranslation();
  const areas = useMarketStore((s) => s.areas);
  const area = useMarketStore((s) => s.area);
  const switchTo = useAreaSwitch();
  const areaName = useAreaNames();
  return (
    <Select
      data-testid="area-selector"
      aria-label={t('shell.areaSelector')}
      placeholder={t('shell.areaSelectorPlaceholder')}
      data={areas.map((a) => ({ value: a.uuid, label: areaName(a) }))}
      value={area?.uuid ?? null}
      allowDeselect={false}
      w={200}
      onChange={(uuid) => {
        const next = areas.find((a) => a.uuid === uuid);
        if (next && next.uuid !== area?.uuid) void switchTo(next);
      }}
    />
  );
}
