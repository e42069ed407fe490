import { areaGeometrySchema, type AreaGeometry } from '@railwatt/contracts';

/**
 * Reading an area's polygon from an uploaded GeoJSON file: a Polygon or MultiPolygon geometry, a
 * Feature with one, or a FeatureCollection holding exactly one polygon feature. Anything else gets a
 * reason the screen shows through i18n (`map.geojson.<reason>`, with the values in `values`).
 */
export type GeoJsonReason =
  | 'not_json'
  | 'not_geojson'
  | 'unsupported_type'
  | 'no_polygon'
  | 'several_polygons'
  | 'invalid_geometry'
  | 'too_large';

export type GeoJsonResult =
  { ok: true; geometry: AreaGeometry } | { ok: false; reason: GeoJsonReason; values?: Record<string, string | number> };

/** Bigger files are refused before parsing (the save body is limited to 1 MB anyway). */
export const MAX_GEOJSON_BYTES = 1_000_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fromGeometry(geometry: unknown): GeoJsonResult {
  if (!isObject(geometry) || typeof geometry.type !== 'string') return { ok: false, reason: 'not_geojson' };
  if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon') {
    return { ok: false, reason: 'unsupported_type', values: { type: geometry.type } };
  }
  const parsed = areaGeometrySchema.safeParse(geometry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: 'invalid_geometry', values: { detail: issue?.message ?? '' } };
  }
  return { ok: true, geometry: parsed.data };
}

export function parseAreaGeoJson(text: string): GeoJsonResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not_json' };
  }
  if (!isObject(json) || typeof json.type !== 'string') return { ok: false, reason: 'not_geojson' };
  if (json.type === 'Feature') return fromGeometry(json.geometry);
  if (json.type === 'FeatureCollection') {
    if (!Array.isArray(json.features)) return { ok: false, reason: 'not_geojson' };
    const polygons = json.features.filter(
      (f) =>
        isObject(f) && isObject(f.geometry) && (f.geometry.type === 'Polygon' || f.geometry.type === 'MultiPolygon'),
    ) as { geometry: unknown }[];
    if (polygons.length === 0) return { ok: false, reason: 'no_polygon' };
    if (polygons.length > 1) return { ok: false, reason: 'several_polygons', values: { count: polygons.length } };
    return fromGeometry(polygons[0]!.geometry);
  }
  return fromGeometry(json);
}

/** Reads a File (size first) and parses it. */
export async function readAreaGeoJsonFile(file: File): Promise<GeoJsonResult> {
  if (file.size > MAX_GEOJSON_BYTES) {
    return { ok: false, reason: 'too_large', values: { max: MAX_GEOJSON_BYTES } };
  }
  return parseAreaGeoJson(await readText(file));
}

/** FileReader rather than Blob.text(): the same in every browser and in jsdom. */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsText(file);
  });
}
