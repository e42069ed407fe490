import { lazy, Suspense } from 'react';
import { Center, Loader } from '@mantine/core';
import type { AreaMapProps } from './area-map';

const AreaMapLazy = lazy(() => import('./area-map').then((m) => ({ default: m.AreaMap })));

/**
 * The map as screens use it: the map component (and, through it, MapLibre and the country outlines)
 * is fetched only when a screen renders a map, never with the shell.
 */
export function LazyAreaMap(props: AreaMapProps) {
  return (
    <Suspense
      fallback={
        <Center h={props.height ?? 420}>
          <Loader size="sm" />
        </Center>
      }
    >
      <AreaMapLazy {...props} />
    </Suspense>
  );
}
