import { Anchor, Group } from '@mantine/core';
import { NavLink } from 'react-router';
import { PageTitle } from '../../../../components/ui/page-title';
import type { ScreenProps } from '../../../../lib/routes';
import { useMarketStore } from '../../../../lib/stores/market-store';
import { useInterfacesT } from './use-interfaces-t';

const BASE = '/administration/interface/config';

/**
 * /administration/interface/config: the section's title and its two children (product.md §2):
 * information everywhere, configuration in the exchange area only. The chosen child renders below.
 */
export function InterfaceConfigScreen(props: ScreenProps) {
  const { tRoot } = useInterfacesT();
  const exchange = useMarketStore((s) => s.area?.kind === 'exchange');
  const tabs = [
    { to: `${BASE}/information`, label: tRoot('routes.administration.interfaceInformation') },
    ...(exchange
      ? [{ to: `${BASE}/configuration`, label: tRoot('routes.administration.interfaceConfiguration') }]
      : []),
  ];
  return (
    <>
      <PageTitle {...props} />
      <Group gap="md" mb="sm" data-testid="interface-config-tabs">
        {tabs.map((tab) => (
          <Anchor
            key={tab.to}
            component={NavLink}
            to={tab.to}
            style={({ isActive }: { isActive: boolean }) => ({ fontWeight: isActive ? 700 : 400 })}
          >
            {tab.label}
          </Anchor>
        ))}
      </Group>
    </>
  );
}
