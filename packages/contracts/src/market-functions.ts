import { isRole, type Role } from './roles.js';

/**
 * A market function held by a user: the role, and the area it is scoped to (null = every area).
 * Tokens carry them as key=value strings (product.md §6): the lowercased value is the function;
 * an area-scoped one ends with ':' and the area's 36-character uuid, e.g.
 * "marketfunction=Settlement-Area-Responsible:7c0e...-...". Unknown values are ignored.
 */
export interface MarketFunction {
  role: Role;
  areaId: string | null;
}

/** The token claim that carries the market functions. */
export const MARKET_FUNCTIONS_CLAIM = 'market_functions';
/** The key used when we mint key=value strings. Any key is accepted when parsing. */
export const MARKET_FUNCTION_KEY = 'marketfunction';

export function parseMarketFunction(raw: string): MarketFunction | null {
  const eq = raw.indexOf('=');
  const value = (eq >= 0 ? raw.slice(eq + 1) : raw).trim().toLowerCase();
  const colon = value.lastIndexOf(':');
  if (colon >= 0 && value.length - colon - 1 === 36) {
    const role = value.slice(0, colon);
    return isRole(role) ? { role, areaId: value.slice(colon + 1) } : null;
  }
  return isRole(value) ? { role: value, areaId: null } : null;
}

export function parseMarketFunctions(claim: unknown): MarketFunction[] {
  const list = Array.isArray(claim) ? claim : typeof claim === 'string' ? [claim] : [];
  return list
    .filter((x): x is string => typeof x === 'string')
    .map(parseMarketFunction)
    .filter((x): x is MarketFunction => x !== null);
}

export function formatMarketFunction(fn: MarketFunction): string {
  return `${MARKET_FUNCTION_KEY}=${fn.role}${fn.areaId ? `:${fn.areaId}` : ''}`;
}

/** The distinct roles a user holds in one area (unscoped functions apply to every area). */
export function rolesInArea(functions: readonly MarketFunction[], areaId: string): Role[] {
  const roles = functions.filter((f) => f.areaId === null || f.areaId === areaId).map((f) => f.role);
  return [...new Set(roles)];
}

/** Area ids in which the user holds at least one function; null entry means "all areas". */
export function holdsFunctionIn(functions: readonly MarketFunction[], areaId: string): boolean {
  return functions.some((f) => f.areaId === null || f.areaId === areaId);
}
