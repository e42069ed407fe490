export * from './roles.js';
export * from './areas.js';
export * from './market-functions.js';
export * from './errors.js';
export * from './paging.js';
export * from './constants.js';
export * from './client-config.js';
