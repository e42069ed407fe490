/** Business constants and limits (product.md §9, calls.md §9). */
export const VERSION_STRING = '2.0.2.105.28';
export const TOKEN_REFRESH_THRESHOLD_SECONDS = 3600;
export const MAX_UPLOAD_FILES = 5;
export const FILE_NAME_DISPLAY_LENGTH = 60;
export const MODAL_AUTO_CLOSE_MS = 3000;
export const AREA_SWITCH_RERENDER_MS = 10;
export const LOADING_OVERLAY_DELAY_MS = 500;
export const PROFILE_MENU_CLOSE_MS = 100;
export const API_RATE_LIMIT = { requests: 5, perMs: 1000 } as const;
export const SETTLEMENT_THROTTLE_MS = 1000;

export const PAGE_SIZES = {
  default: 20,
  dataLog: 100,
  fleet: 10,
  dataSearch: 100,
  auditLog: 100,
  eventMonitor: 50,
  tableView: 100,
  exportFetch: 10000,
  lookup: 1000,
} as const;

export const DEFAULT_TIME_RANGE = {
  start: '1970-01-01T00:00:00Z',
  end: '2070-01-01T00:00:00Z',
} as const;

export const GRANULARITY = { year: 'P1Y', month: 'P1M', day: 'P1D', hour: 'PT1H' } as const;

export const QUALITY = { measured: 127, uncertain: 61, estimated: 56, nonExistent: 46 } as const;

export const TRACTION_SYSTEMS = {
  '00': 'unspecified',
  '01': '25kV 50Hz',
  '02': '15kV 16.7Hz',
  '03': '3kV DC',
  '04': '1.5kV DC',
  '05': '0.75/0.6kV DC',
} as const;

export const EXPORT_FILE_NAMES = {
  entities: 'exportedentities.xlsx',
  masterdata: 'masterdata.csv',
  organisations: 'exportedorganisations.xlsx',
  timeseries: 'exportedtimeseries.xlsx',
  events: 'events.xlsx',
  deliveryStatus: 'deliverystatus.xlsx',
  interfaceConfigurations: 'InterfaceConfigurations.xlsx',
} as const;

export const LANGUAGES = ['en', 'da', 'nb', 'sv', 'fi', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Header names on API calls. */
export const TENANT_HEADER = 'current-tenant-id';
export const TENANT_ZONE_HEADER = 'Current-Tenant-ZoneId';
