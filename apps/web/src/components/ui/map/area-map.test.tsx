import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AreaGeometry } from '@railwatt/contracts';
import areasLocale from '../../../locales/en/areas.json';
import { createTestI18n, renderUi } from '../test-harness';
import { AreaMap } from './area-map';
import { EMPTY_DRAWING, type DrawingState } from './drawing';
import type { CreateEngine, MapEngine, MapEngineHandlers } from './engine';
import { AREA_PAINT, AREA_TYPE_COLOURS, blend, LAYERS, type LonLat, type MapArea } from './map-logic';

/** #rrggbb as the DOM writes a colour back (rgb(r, g, b)). */
const hexToRgb = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

const box = (x0: number, y0: number, x1: number, y1: number): AreaGeometry => ({
  type: 'Polygon',
  coordinates: [
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [x0, y0],
    ],
  ],
});

/** A stand-in for MapLibre: records what the component hands it and lets the test click and drag. */
function fakeEngine() {
  const calls = {
    popups: [] as unknown[],
    areas: [] as unknown[],
    drawing: [] as unknown[],
    views: [] as unknown[],
    markers: [] as unknown[],
    labels: [] as unknown[],
  };
  let handlers: MapEngineHandlers = {};
  const project = ([lon, lat]: LonLat) => ({ x: lon * 100, y: -lat * 100 });
  const engine: MapEngine = {
    project,
    setAreas: (d) => calls.areas.push(d),
    setDrawing: (d) => calls.drawing.push(d),
    setMarkers: (m) => calls.markers.push(m),
    setLabels: (l) => calls.labels.push(l),
    show: (v) => calls.views.push(v),
    setCursor: vi.fn(),
    showPopup: (lonLat, text) => calls.popups.push({ lonLat, text }),
    resize: vi.fn(),
    destroy: vi.fn(),
    layers: LAYERS,
  };
  const create: CreateEngine = async (_container, h) => {
    handlers = h;
    return engine;
  };
  return {
    calls,
    create,
    engine,
    click: (lon: number, lat: number) =>
      act(() => handlers.onClick?.({ lonLat: [lon, lat], point: project([lon, lat]) })),
    drag: (from: LonLat, to: LonLat) =>
      act(() => {
        if (handlers.onDragStart?.(project(from))) handlers.onDrag?.(to);
        handlers.onDragEnd?.();
      }),
  };
}

const i18n = () => createTestI18n(areasLocale);
const areas: MapArea[] = [
  { uuid: 'g', name: 'Grid', type: 'GridArea', geometry: box(10, 59, 11, 60) },
  { uuid: 'p', name: 'Price', type: 'PriceArea', geometry: box(8, 58, 13, 62) },
];

describe('AreaMap', () => {
  it('hands the areas to the engine coloured by type, shows a legend and fits the selection', async () => {
    const fake = fakeEngine();
    const { rerender } = renderUi(<AreaMap areas={areas} createEngine={fake.create} />, { i18n: i18n() });
    await waitFor(() => expect(screen.getByTestId('area-map')).toHaveAttribute('data-ready', 'true'));
    const legend = screen.getByTestId('map-legend');
    expect(legend).toHaveTextContent('Grid area');
    expect(legend).toHaveTextContent('Price area');
    // The areas reach the engine in an effect after it reports ready: wait for the hand-over.
    await waitFor(() => expect(fake.calls.areas.length).toBeGreaterThan(0));
    const last = fake.calls.areas.at(-1) as { features: { properties: { colour: string } }[] };
    expect(last.features.map((f) => f.properties.colour)).toEqual([
      AREA_TYPE_COLOURS.gridarea,
      AREA_TYPE_COLOURS.pricearea,
    ]);
    await waitFor(() =>
      expect(fake.calls.views.at(-1)).toEqual({
        bounds: [
          [8, 58],
          [13, 62],
        ],
      }),
    );

    rerender(<AreaMap areas={areas} selected={['g']} focus={['g']} createEngine={fake.create} />);
    await waitFor(() =>
      expect(fake.calls.views.at(-1)).toEqual({
        bounds: [
          [10, 59],
          [11, 60],
        ],
      }),
    );
  });

  it("writes the price areas' names and the selected areas' on the map, and a legend painted as the fills", async () => {
    const fake = fakeEngine();
    const { rerender } = renderUi(<AreaMap areas={areas} createEngine={fake.create} />, { i18n: i18n() });
    await waitFor(() => expect(fake.calls.labels.length).toBeGreaterThan(0));
    expect((fake.calls.labels.at(-1) as { text: string }[]).map((l) => l.text)).toEqual(['Price']);
    expect(screen.getByTestId('area-map')).toHaveAttribute('data-labels', 'Price');
    rerender(<AreaMap areas={areas} selected={['g']} createEngine={fake.create} />);
    await waitFor(() =>
      expect((fake.calls.labels.at(-1) as { text: string }[]).map((l) => l.text)).toEqual(['Grid', 'Price']),
    );
    // Each legend entry carries the colour the layers paint its kind with, shown as the map shows it.
    const entries = screen.getAllByTestId('map-legend-entry');
    expect(entries.map((e) => e.getAttribute('data-colour'))).toEqual([
      AREA_TYPE_COLOURS.gridarea,
      AREA_TYPE_COLOURS.pricearea,
    ]);
    const swatch = entries[1]!.querySelector('span')!;
    expect(swatch.style.background).toBe(hexToRgb(blend(AREA_TYPE_COLOURS.pricearea, AREA_PAINT.fillOpacity)));
  });

  it('lists the areas drawn as text under the map, by kind, the selected ones marked', async () => {
    const fake = fakeEngine();
    renderUi(<AreaMap areas={areas} selected={['g']} createEngine={fake.create} />, { i18n: i18n() });
    const list = await screen.findByRole('list', { name: 'Areas on the map' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Grid area: Grid (selected)', 'Price area: Price']);
  });

  it('hands markers to the engine and fits them when they are the focus', async () => {
    const fake = fakeEngine();
    const markers = [{ id: 'mp1', lon: 10.75, lat: 59.91, label: 'Metering point Oslo S' }];
    renderUi(<AreaMap areas={areas} markers={markers} focus={['mp1']} createEngine={fake.create} />, { i18n: i18n() });
    await waitFor(() => expect(fake.calls.markers.at(-1)).toEqual(markers));
    const view = fake.calls.views.at(-1) as { bounds: [[number, number], [number, number]] };
    expect(view.bounds[0][0]).toBeCloseTo(10.74);
    expect(view.bounds[1][1]).toBeCloseTo(59.92);
  });

  it('names the areas under a click in a popup when not drawing', async () => {
    const fake = fakeEngine();
    renderUi(<AreaMap areas={areas} createEngine={fake.create} />, { i18n: i18n() });
    await waitFor(() => expect(screen.getByTestId('area-map')).toHaveAttribute('data-ready', 'true'));
    fake.click(10.5, 59.5);
    expect(fake.calls.popups).toEqual([{ lonLat: [10.5, 59.5], text: 'Grid (Grid area); Price (Price area)' }]);
    fake.click(0, 0);
    expect(fake.calls.popups).toHaveLength(1);
  });

  it('opens at the default view when there is nothing to fit', async () => {
    const fake = fakeEngine();
    renderUi(<AreaMap areas={[]} createEngine={fake.create} />, { i18n: i18n() });
    await waitFor(() => expect(fake.calls.views).toEqual([{ center: [10, 55], zoom: 5 }]));
    expect(screen.queryByTestId('map-legend')).not.toBeInTheDocument();
  });

  it('draws a polygon: clicks add corners, the first corner closes it, a corner drags, clear starts again', async () => {
    const fake = fakeEngine();
    const seen: DrawingState[] = [];
    function Drawing() {
      const [state, setState] = useState<DrawingState>(EMPTY_DRAWING);
      seen.push(state);
      return <AreaMap areas={[]} drawing={{ state, onChange: setState }} createEngine={fake.create} />;
    }
    renderUi(<Drawing />, { i18n: i18n() });
    await waitFor(() => expect(screen.getByTestId('area-map')).toHaveAttribute('data-ready', 'true'));
    expect(screen.getByTestId('map-draw-finish')).toBeDisabled();
    fake.click(10, 60);
    fake.click(11, 60);
    fake.click(11, 61);
    expect(screen.getByTestId('map-draw-finish')).toBeEnabled();
    fake.click(10, 60);
    expect(seen.at(-1)).toEqual({
      vertices: [
        [10, 60],
        [11, 60],
        [11, 61],
      ],
      closed: true,
    });
    expect(screen.getByTestId('map-draw-toolbar')).toHaveTextContent('The area is closed');

    fake.drag([11, 61], [12, 62]);
    expect(seen.at(-1)!.vertices[2]).toEqual([12, 62]);
    const drawn = fake.calls.drawing.at(-1) as { features: { geometry: { type: string } }[] };
    expect(drawn.features[0]!.geometry.type).toBe('Polygon');

    await userEvent.click(screen.getByTestId('map-draw-clear'));
    expect(seen.at(-1)).toEqual(EMPTY_DRAWING);
  });

  it('says so when the map cannot start (no WebGL)', async () => {
    renderUi(<AreaMap areas={areas} createEngine={() => Promise.reject(new Error('no webgl'))} />, { i18n: i18n() });
    expect(await screen.findByRole('alert')).toHaveTextContent('The map could not be shown');
  });

  it('destroys the engine when it unmounts', async () => {
    const fake = fakeEngine();
    const { unmount } = renderUi(<AreaMap areas={areas} createEngine={fake.create} />, { i18n: i18n() });
    await waitFor(() => expect(screen.getByTestId('area-map')).toHaveAttribute('data-ready', 'true'));
    unmount();
    expect(fake.engine.destroy).toHaveBeenCalled();
  });
});
