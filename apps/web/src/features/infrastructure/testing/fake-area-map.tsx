import type { AreaMapProps } from '../../../components/ui/map';

/**
 * The map as the screen tests see it (jsdom has no WebGL): the areas it was given by name, and, when
 * the screen lets the user draw, a button that "draws" the square `FAKE_DRAWING` and closes it.
 */
export const FAKE_DRAWING: [number, number][] = [
  [10.2, 59.2],
  [10.8, 59.2],
  [10.8, 59.8],
];
export function FakeAreaMap(props: AreaMapProps) {
  return (
    <div data-testid={props['data-testid'] ?? 'area-map'} data-focus={(props.focus ?? []).join(',')}>
      {props.areas.map((a) => (
        <span key={a.uuid} data-testid="map-area">
          {a.name}
        </span>
      ))}
      {props.drawing && (
        <button type="button" onClick={() => props.drawing!.onChange({ vertices: FAKE_DRAWING, closed: true })}>
          fake-draw
        </button>
      )}
    </div>
  );
}
