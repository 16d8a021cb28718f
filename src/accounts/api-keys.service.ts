/**
 * API keys: created with scopes, shown once, stored as SHA-256 hashes, revocable. A key with `read`
 * authenticates the public read API; ingest scopes authenticate only SDK ingest.
 */
import type { AuditActor, AuditService } from '../audit/index.js';
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
  personalTeam: boolean;
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
  constructor(private readonly deps: { db: Db; clock: Clock; audit: AuditService }) {}

  async create(
    owner: { userId: number; teamId: number },
    name: string,
    scopes: ApiKeyScope[],
    actor: AuditActor = { userId: owner.userId },
  ): Promise<CreatedKeyT> {
    const unique = [...new Set(scopes)];
    if (unique.length === 0)
      throw errors.validation('body.scopes', 'body.scopes must name at least one scope');
    const { key, prefix } = newApiKey();
    const row = await this.deps.db.transaction(async (tx) => {
      const inserted = await repo.insertApiKey(tx, {
        ...owner,
        name,
        prefix,
        hash: sha256(key),
        scopes: unique,
      });
      await this.deps.audit.record(tx, owner.teamId, actor, {
        action: 'api_key.created',
        targetType: 'api_key',
        targetId: inserted.id,
        after: { name, prefix, scopes: unique },
      });
      return inserted;
    });
    return { ...info(row), key };
  }

  /** The live keys of a team (the caller's personal team, or a shared team they may read). */
  async list(teamId: number): Promise<ApiKeyInfo[]> {
    return (await repo.listApiKeys(this.deps.db, teamId)).map(info);
  }

  /** Revokes one of the team's keys; returns it as it was (for the audit log). */
  async revoke(teamId: number, keyId: number, actor: AuditActor = { userId: null }): Promise<ApiKeyInfo> {
    const row = await this.deps.db.transaction(async (tx) => {
      const revoked = await repo.revokeApiKey(tx, teamId, keyId, this.deps.clock.now());
      if (revoked) {
        await this.deps.audit.record(tx, teamId, actor, {
          action: 'api_key.revoked',
          targetType: 'api_key',
          targetId: revoked.id,
          before: { name: revoked.name, prefix: revoked.prefix, scopes: revoked.scopes },
        });
      }
      return revoked;
    });
    if (!row) throw errors.notFound('No such API key.');
    return info(row);
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
    // The team owner's entitled plan: Explorer once the subscription is canceled (see entitledPlan).
    const plan = entitledPlan(row.plan, row.subscription_status, row.subscription_status_since, now);
    return {
      keyId: row.id,
      userId: row.user_id,
      teamId: row.team_id,
      plan,
      scopes: row.scopes,
      personalTeam: row.personal,
    };
  }
}
