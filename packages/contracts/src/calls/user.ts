import { z } from 'zod';
import { settlementAreaSchema } from '../areas.js';
import { meSchema } from '../client-config.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/** Calls the shell needs before an area is chosen: who am I, and which areas may I pick. */
export const userCalls = {
  me: defineCall({
    method: 'GET',
    path: '/user/me',
    access: POLICIES.signedIn,
    summary: 'The signed-in user',
    response: meSchema,
  }),
  settlementAreas: defineCall({
    method: 'GET',
    path: '/user/settlementareas',
    access: POLICIES.signedIn,
    summary: 'Areas in which the signed-in user holds a market function',
    response: z.array(settlementAreaSchema),
  }),
};
