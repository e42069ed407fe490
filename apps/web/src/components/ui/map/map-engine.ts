import maplibregl, { type GeoJSONSource, type StyleSpecification } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import type { FeatureCollection } from 'geojson';
import { countryOutlines } from './basemap';
import { fitPadding, LAYERS, offlineStyle, SOURCES, type LonLat, type MapLabel, type MapMarker } from './map-logic';
import type { MapEngine, MapEngineHandlers, MapView } from './engine';

/**
 * The one place that talks to MapLibre GL: it draws what map-logic.ts computed and reports clicks and
 * drags back as positions. Loaded only through area-map.tsx's dynamic import, so MapLibre and the
 * bundled country outlines stay out of the shell's initial JavaScript.
 */
export async function createMapLibreEngine(container: HTMLElement, handlers: MapEngineHandlers): Promise<MapEngine> {
  const map = new maplibregl.Map({
    container,
    style: offlineStyle(countryOutlines()) as StyleSpecification,
    center: [10, 55],
    zoom: 5,
    attributionControl: false,
    // No symbol layers: the style has no glyphs, so nothing is fetched for text (names are HTML markers).
    renderWorldCopies: false,
  });
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
  map.addControl(new maplibregl.AttributionControl({ compact: true, customAttribution: 'Natural Earth' }));
  map.doubleClickZoom.disable();
  await new Promise<void>((resolve) => map.once('load', () => resolve()));

  let markers: maplibregl.Marker[] = [];
  let labels: maplibregl.Marker[] = [];
  let popup: maplibregl.Popup | undefined;
  let dragging = false;
  const project = (v: LonLat) => map.project(v);

  map.on('click', (e) => {
    if (dragging) return;
    handlers.onClick?.({ lonLat: [e.lngLat.lng, e.lngLat.lat], point: { x: e.point.x, y: e.point.y } });
  });
  map.on('mousedown', (e) => {
    if (!handlers.onDragStart?.({ x: e.point.x, y: e.point.y })) return;
    dragging = true;
    map.dragPan.disable();
    e.preventDefault();
  });
  map.on('mousemove', (e) => {
    if (dragging) handlers.onDrag?.([e.lngLat.lng, e.lngLat.lat]);
  });
  map.on('mouseup', () => {
    if (!dragging) return;
    map.dragPan.enable();
    handlers.onDragEnd?.();
    // The click that follows a mouseup must not add a vertex where the drag ended.
    setTimeout(() => (dragging = false), 0);
  });

  const setData = (source: string, data: FeatureCollection) =>
    (map.getSource(source) as GeoJSONSource | undefined)?.setData(data);

  return {
    project,
    setAreas: (data) => setData(SOURCES.areas, data),
    setDrawing: (data) => setData(SOURCES.draw, data),
    setMarkers(next: readonly MapMarker[]) {
      markers.forEach((m) => m.remove());
      markers = next.map((m) => {
        const popup = new maplibregl.Popup({ offset: 24, closeButton: true }).setText(m.label);
        return new maplibregl.Marker({ color: '#1c7ed6' }).setLngLat([m.lon, m.lat]).setPopup(popup).addTo(map);
      });
    },
    setLabels(next: readonly MapLabel[]) {
      labels.forEach((l) => l.remove());
      labels = next.map((label) => {
        // Text in the page, not on the canvas: dark on a white halo, readable on any fill, and not a
        // target (a click goes through to the map and its popup).
        const element = document.createElement('div');
        element.className = 'railwatt-map-label';
        element.textContent = label.text;
        // MapLibre makes a marker without a role a button named "Map marker"; a label is a named image.
        element.setAttribute('role', 'img');
        element.setAttribute('aria-label', label.text);
        Object.assign(element.style, {
          font: '600 12px/1.2 system-ui, sans-serif',
          color: '#212529',
          textShadow: '0 0 3px #fff, 0 0 3px #fff, 0 0 2px #fff',
          whiteSpace: 'nowrap',
          pointerEvents: 'none',
        });
        return new maplibregl.Marker({ element, anchor: 'center' }).setLngLat(label.lonLat).addTo(map);
      });
    },
    show(view: MapView) {
      const { clientWidth, clientHeight } = container;
      if ('bounds' in view) {
        map.fitBounds(view.bounds, { padding: fitPadding(clientWidth, clientHeight), animate: false, maxZoom: 12 });
      } else {
        map.jumpTo({ center: view.center, zoom: view.zoom });
      }
    },
    showPopup(lonLat: LonLat, text: string) {
      popup?.remove();
      popup = new maplibregl.Popup({ closeButton: true, maxWidth: '320px' }).setLngLat(lonLat).setText(text).addTo(map);
    },
    setCursor(cursor: string) {
      map.getCanvas().style.cursor = cursor;
    },
    resize: () => map.resize(),
    destroy: () => map.remove(),
    layers: LAYERS,
  };
}
