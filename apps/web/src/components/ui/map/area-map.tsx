import { useEffect, useMemo, useRef, useState } from 'react';
import { toEntityKind, type AreaGeometry } from '@railwatt/contracts';
import { Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  canFinish,
  clearDrawing,
  clickAt,
  drawingFeatures,
  finishDrawing,
  moveVertex,
  undoVertex,
  vertexNear,
  type DrawingState,
} from './drawing';
import type { CreateEngine, MapEngine } from './engine';
import { areaFeatures, areaLabels, areasAt, legendEntries, viewFor, type MapArea, type MapMarker } from './map-logic';

export interface AreaMapDrawing {
  state: DrawingState;
  onChange: (next: DrawingState) => void;
}

export interface AreaMapProps {
  /** Areas drawn as coloured layers by type, with a legend. */
  areas: readonly MapArea[];
  /** Points shown as markers with a popup. */
  markers?: readonly MapMarker[];
  /** Areas drawn stronger (the table's selection). */
  selected?: readonly string[];
  /** Area uuids or marker ids to fit the view to (5 % padding); empty: everything shown; nothing: default view. */
  focus?: readonly string[];
  /** A geometry to keep in view besides `focus` (the area being edited). */
  fitGeometry?: AreaGeometry | null;
  /** When given, the map draws and edits one polygon: click adds a vertex, vertices drag, finish closes. */
  drawing?: AreaMapDrawing;
  height?: number | string;
  /** The engine factory (tests hand in a fake; by default MapLibre, loaded on demand). */
  createEngine?: CreateEngine;
  'data-testid'?: string;
}

// Stable defaults: a fresh [] per render would re-run the engine effects on every render.
const NO_MARKERS: readonly MapMarker[] = [];
const NOTHING: readonly string[] = [];

const loadMapLibre: CreateEngine = (container, handlers) =>
  import('./map-engine').then((m) => m.createMapLibreEngine(container, handlers));

/**
 * The one map of the app (areas, markers, drawing). This module is itself loaded lazily (see
 * lazy-area-map.tsx) and loads MapLibre on demand, so no screen pays for the map until it shows one.
 */
export function AreaMap({
  areas,
  markers = NO_MARKERS,
  selected = NOTHING,
  focus,
  fitGeometry,
  drawing,
  height = 420,
  createEngine = loadMapLibre,
  'data-testid': testId = 'area-map',
}: AreaMapProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'map' });
  const container = useRef<HTMLDivElement>(null);
  const [engine, setEngine] = useState<MapEngine | null>(null);
  const [failed, setFailed] = useState(false);
  // The handlers read the latest drawing through a ref: the engine is created once.
  const drawingRef = useRef(drawing);
  drawingRef.current = drawing;
  const areasRef = useRef(areas);
  areasRef.current = areas;
  const describe = (a: MapArea) =>
    `${a.name} (${t(`area_types.${toEntityKind(a.type) ?? a.type}`, { defaultValue: a.type })})`;
  const describeRef = useRef(describe);
  describeRef.current = describe;
  const dragIndex = useRef<number | undefined>(undefined);
  const engineRef = useRef<MapEngine | null>(null);

  useEffect(() => {
    let cancelled = false;
    let created: MapEngine | null = null;
    const element = container.current;
    if (!element) return;
    createEngine(element, {
      onClick: ({ lonLat, point }) => {
        const d = drawingRef.current;
        const e = engineRef.current;
        if (!e) return;
        if (!d) {
          // Not drawing: name the areas under the click (only price and selected areas carry labels).
          const hit = areasAt(areasRef.current, lonLat);
          if (hit.length > 0) e.showPopup(lonLat, hit.map((a) => describeRef.current(a)).join('; '));
          return;
        }
        const next = clickAt(d.state, lonLat, point, e.project);
        if (next !== d.state) d.onChange(next);
      },
      onDragStart: (point) => {
        const d = drawingRef.current;
        const e = engineRef.current;
        if (!d || !e) return false;
        dragIndex.current = vertexNear(d.state, point, e.project);
        return dragIndex.current !== undefined;
      },
      onDrag: (lonLat) => {
        const d = drawingRef.current;
        if (!d || dragIndex.current === undefined) return;
        d.onChange(moveVertex(d.state, dragIndex.current, lonLat));
      },
      onDragEnd: () => {
        dragIndex.current = undefined;
      },
    })
      .then((e) => {
        if (cancelled) {
          e.destroy();
          return;
        }
        created = e;
        engineRef.current = e;
        setEngine(e);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      engineRef.current = null;
      created?.destroy();
    };
  }, [createEngine]);

  const features = useMemo(() => areaFeatures(areas, selected), [areas, selected]);
  useEffect(() => {
    engine?.setAreas(features);
  }, [engine, features]);
  const labels = useMemo(() => areaLabels(areas, selected), [areas, selected]);
  useEffect(() => {
    engine?.setLabels(labels);
  }, [engine, labels]);
  useEffect(() => {
    engine?.setMarkers(markers);
  }, [engine, markers]);
  useEffect(() => {
    if (!engine) return;
    engine.setDrawing(drawingFeatures(drawing?.state ?? { vertices: [], closed: true }));
    engine.setCursor(drawing && !drawing.state.closed ? 'crosshair' : '');
  }, [engine, drawing]);

  // Refit only when what should be in view changes (not on every vertex added).
  const view = useMemo(
    () => viewFor(areas, markers, focus ?? NOTHING, fitGeometry ? [fitGeometry] : []),
    [areas, markers, focus, fitGeometry],
  );
  const viewKey = JSON.stringify(view);
  useEffect(() => {
    if (engine) engine.show(JSON.parse(viewKey) as typeof view);
  }, [engine, viewKey]);

  const legend = legendEntries(areas);
  const state = drawing?.state;

  return (
    <Stack gap="xs">
      {drawing && state && (
        <Group gap="xs" data-testid="map-draw-toolbar">
          <Text size="sm" c="dimmed">
            {state.closed ? t('draw.hint_closed') : t('draw.hint_open', { count: state.vertices.length })}
          </Text>
          <Button
            size="xs"
            onClick={() => drawing.onChange(finishDrawing(state))}
            disabled={!canFinish(state)}
            data-testid="map-draw-finish"
          >
            {t('draw.finish')}
          </Button>
          <Button
            size="xs"
            variant="outline"
            onClick={() => drawing.onChange(undoVertex(state))}
            disabled={state.vertices.length === 0}
            data-testid="map-draw-undo"
          >
            {t('draw.undo')}
          </Button>
          <Button
            size="xs"
            variant="outline"
            color="red"
            onClick={() => drawing.onChange(clearDrawing())}
            disabled={state.vertices.length === 0}
            data-testid="map-draw-clear"
          >
            {t('draw.clear')}
          </Button>
        </Group>
      )}
      <Box pos="relative" h={height} style={{ borderRadius: 4, overflow: 'hidden' }}>
        <div
          ref={container}
          data-testid={testId}
          data-ready={engine ? 'true' : 'false'}
          // What the map shows, for browser journeys (the canvas itself cannot be read): the areas
          // drawn and the view last fitted.
          data-areas={features.features.map((f) => f.properties.name).join('|')}
          data-labels={labels.map((l) => l.text).join('|')}
          data-view={engine ? viewKey : ''}
          data-drawing={drawing ? JSON.stringify(drawing.state) : undefined}
          role="region"
          aria-label={t('label')}
          style={{ position: 'absolute', inset: 0 }}
        />
        {failed && (
          <Text c="red" role="alert" p="sm" pos="absolute" top={0}>
            {t('failed')}
          </Text>
        )}
        {legend.length > 0 && (
          <Paper
            pos="absolute"
            bottom={8}
            left={8}
            p={6}
            shadow="xs"
            withBorder
            data-testid="map-legend"
            aria-label={t('legend')}
            style={{ zIndex: 2 }}
          >
            <Stack gap={2}>
              {legend.map((entry) => (
                <Group key={entry.kind} gap={6} wrap="nowrap" data-testid="map-legend-entry" data-colour={entry.colour}>
                  <span
                    aria-hidden
                    style={{
                      display: 'inline-block',
                      width: 12,
                      height: 12,
                      // As the area shows on the map: its fill over the land, edged with its line.
                      background: entry.swatch.fill,
                      border: `2px solid ${entry.swatch.line}`,
                    }}
                  />
                  <Text size="xs">{t(`area_types.${entry.kind}`, { defaultValue: entry.kind })}</Text>
                </Group>
              ))}
            </Stack>
          </Paper>
        )}
      </Box>
      {/* The areas drawn, as text too (WCAG 1.1.1: the canvas says nothing to a screen reader). */}
      {legend.length > 0 && (
        <Box component="ul" m={0} pl="md" aria-label={t('area_list')} data-testid="map-area-list">
          {legend.map((entry) => (
            <Text component="li" size="xs" key={entry.kind} data-testid="map-area-list-entry">
              {t(`area_types.${entry.kind}`, { defaultValue: entry.kind })}:{' '}
              {features.features
                .filter((f) => f.properties.kind === entry.kind)
                .map((f) =>
                  f.properties.selected ? t('area_selected', { name: f.properties.name }) : f.properties.name,
                )
                .join(', ')}
            </Text>
          ))}
        </Box>
      )}
    </Stack>
  );
}
