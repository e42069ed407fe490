export * from './kinds.js';
export * from './entity.js';
export * from './fleet-kinds.js';
export * from './organisation.js';
export * from './administration.js';
export * from './infrastructure.js';
export * from './fleet.js';
export * from './kind-schemas.js';
