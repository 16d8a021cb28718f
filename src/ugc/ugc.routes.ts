/**
 * UGC catalog endpoints (/api/ugc/*): public. Anonymous callers get the anonymous rate limit per
 * IP, signed-in users and read keys their own; every answer is the same for everyone. Each handler
 * sends a body UgcService already serialised (cached until the next collection).
 */
import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { sendSerialised } from '../http/serializers.js';
import { PUBLIC_LIST_CAP, RISING_METHOD, SORT_METHOD, TRENDING_METHOD } from './scores.js';
import {
  CreatorParams,
  CreatorQuery,
  CreatorResponse,
  ItemParams,
  ItemQuery,
  ItemResponse,
  ItemsQuery,
  ItemsResponse,
  TrendsResponse,
} from './ugc.schemas.js';
import type { UgcService } from './ugc.service.js';

const tags = ['ugc catalog'];
const access = { auth: 'optional' } as const;
const send = sendSerialised;
const CACHED = 'Recomputed after each collection of the catalog (every 15 minutes).';
const CAPPED = `\`limit\` is capped at ${PUBLIC_LIST_CAP} for every caller (clamped, not refused); pages follow with \`cursor\`.`;

export function registerUgcRoutes(app: App, ugc: UgcService): void {
  app.get(
    '/api/ugc/items',
    {
      config: { access },
      schema: {
        tags,
        summary:
          'Avatar items (accessories, clothing, bundles) by category, trending, new, price or favourites',
        description: `${CAPPED} ${CACHED} Orders: trending: ${SORT_METHOD.trending} new: ${SORT_METHOD.new} price: ${SORT_METHOD.price} favorites: ${SORT_METHOD.favorites}`,
        querystring: ItemsQuery,
        response: { 200: ItemsResponse, ...errorResponses(422) },
      },
    },
    async (request, reply) => send(reply, await ugc.items(request.query)),
  );
  app.get(
    '/api/ugc/trends',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Categories, price bands and creators rising',
        description: `${CACHED} Before the first collection the lists are empty and computed_at is null. ${RISING_METHOD}`,
        response: { 200: TrendsResponse },
      },
    },
    async (_request, reply) => send(reply, await ugc.trends()),
  );
  app.get(
    '/api/ugc/items/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'One avatar item with its daily price and favourites history',
        description: `404 not_found for an item the service does not collect. ${CACHED} ${TRENDING_METHOD}`,
        params: ItemParams,
        querystring: ItemQuery,
        response: { 200: ItemResponse, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => send(reply, await ugc.item(request.params.id, request.query)),
  );
  app.get(
    '/api/ugc/creators/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: "A creator's catalog items and totals",
        description: `404 not_found for a creator with no collected item. ${CAPPED} ${CACHED}`,
        params: CreatorParams,
        querystring: CreatorQuery,
        response: { 200: CreatorResponse, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => send(reply, await ugc.creator(request.params.id, request.query)),
  );
}
