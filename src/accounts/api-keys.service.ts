/**
 * API keys: created with scopes, shown once, stored as SHA-256 hashes, revocable. A key with `read`
 * authenticates the public read API; ingest scopes authenticate only SDK ingest.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { entitledPlan, type PlanName } from '../plans.js';
import * as repo from './accounts.repo.js';
import type { ApiKeyT, CreatedKeyT } from './accounts.schemas.js';
import { API_KEY_PREFIX, newApiKey, sha256 } from './tokens.js';

export const API_KEY_SCOPES = ['read', 'sdk:ingest', 'ingest:telemetry'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const INGEST_SCOPES: readonly ApiKeyScope[] = ['sdk:ingest', 'ingest:telemetry'];

export type ApiKeyInfo = ApiKeyT;

export interface KeyPrincipal {
  keyId: number;
  userId: number;
  teamId: number;
  plan: PlanName;
  scopes: string[];
}

const TOUCH_EVERY_MS = 60_000;

function info(row: repo.ApiKeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
  };
}

export class ApiKeysService {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  async create(
    owner: { userId: number; teamId: number },
    name: string,
    scopes: ApiKeyScope[],
  ): Promise<CreatedKeyT> {
    const unique = [...new Set(scopes)];
    if (unique.length === 0)
      throw errors.validation('body.scopes', 'body.scopes must name at least one scope');
    const { key, prefix } = newApiKey();
    const row = await repo.insertApiKey(this.deps.db, {
      ...owner,
      name,
      prefix,
      hash: sha256(key),
      scopes: unique,
    });
    return { ...info(row), key };
  }

  async list(userId: number): Promise<ApiKeyInfo[]> {
    return (await repo.listApiKeys(this.deps.db, userId)).map(info);
  }

  async revoke(userId: number, keyId: number): Promise<void> {
    if (!(await repo.revokeApiKey(this.deps.db, userId, keyId, this.deps.clock.now()))) {
      throw errors.notFound('No such API key.');
    }
  }

  /** The live key behind a secret, or null (unknown or revoked). Records when it was last used. */
  async find(secret: string): Promise<KeyPrincipal | null> {
    if (!secret.startsWith(API_KEY_PREFIX) || secret.length > 200) return null;
    const row = await repo.findLiveApiKey(this.deps.db, sha256(secret));
    if (!row) return null;
    const now = this.deps.clock.now();
    if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= TOUCH_EVERY_MS) {
      await repo.touchApiKey(this.deps.db, row.id, now);
    }
    // The owner's entitled plan: Explorer once the subscription is canceled (see entitledPlan).
    const plan = entitledPlan(row.plan, row.subscription_status, row.subscription_status_since, now);
    return { keyId: row.id, userId: row.user_id, teamId: row.team_id, plan, scopes: row.scopes };
  }
}
