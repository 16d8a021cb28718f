import type { FastifyInstance } from 'fastify';
import type { Entitlements } from '../accounts/index.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';

export interface MarketRouteDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

export function registerMarket(_app: FastifyInstance, _deps: MarketRouteDeps): void {}
