/**
 * Alert rules: creation (threshold per type, the game must be in the catalogue, plan cap), the
 * owner's list, viewed flags, deletion and the firing history. Every lookup is scoped by owner:
 * another user's rule answers 404, exactly like one that does not exist.
 */

import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import type { Entitlements } from '../plans.js';
import * as repo from './alerts.repo.js';
import type {
  AlertEventsT,
  AlertPatchBodyT,
  CreateAlertBodyT,
  CreatedAlertT,
  DeletedT,
  ListedAlertT,
  ViewedAllT,
} from './alerts.schemas.js';
import { watchingMessage } from './messages.js';
import { resolveThreshold } from './rules.js';
import { lockTeam } from './tracking.repo.js';
import type { Caller } from './tracking.service.js';

export interface AlertsServiceDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

export type CreateAlertInput = CreateAlertBodyT;

const listed = (r: repo.AlertRow): ListedAlertT => ({
  id: r.id,
  message: r.message,
  type: r.type,
  viewed: r.viewed,
  created_at: r.created_at.toISOString(),
  game_id: r.universe_id,
  threshold: r.threshold,
  last_fired_at: r.last_fired_at ? r.last_fired_at.toISOString() : null,
});

const notFound = () => errors.notFound('No such alert.');

export class AlertsService {
  constructor(private readonly deps: AlertsServiceDeps) {}

  async create(caller: Caller, input: CreateAlertInput): Promise<CreatedAlertT> {
    const threshold = resolveThreshold(input.type, input.threshold);
    if (typeof threshold !== 'number') throw errors.validation('body.threshold', threshold.problem);
    const limit = this.deps.entitlements.plans[caller.plan].alerts;
    const row = await this.deps.db.transaction(async (tx) => {
      const game = await repo.catalogueGame(tx, input.game_id);
      if (!game) throw errors.notFound(`No game with universe id ${input.game_id} is in the catalogue.`);
      await lockTeam(tx, caller.teamId);
      if ((await repo.countAlerts(tx, caller.teamId)) >= limit) {
        throw errors.conflict(
          'limit_reached',
          `Your ${caller.plan} plan allows ${limit} alerts; delete one or upgrade to add more.`,
        );
      }
      return repo.insertAlert(tx, {
        userId: caller.userId,
        teamId: caller.teamId,
        universeId: input.game_id,
        type: input.type,
        threshold,
        message: watchingMessage(input.type, threshold, game),
        createdAt: this.deps.clock.now(),
      });
    });
    return {
      id: row.id,
      game_id: row.universe_id,
      type: row.type,
      threshold: row.threshold,
      created_at: row.created_at.toISOString(),
    };
  }

  async list(caller: Caller): Promise<{ alerts: ListedAlertT[] }> {
    return { alerts: (await repo.listAlerts(this.deps.db, caller.teamId)).map(listed) };
  }

  async remove(caller: Caller, id: number): Promise<DeletedT> {
    if (!(await repo.deleteAlert(this.deps.db, caller.teamId, id))) throw notFound();
    return { status: 'deleted' };
  }

  /**
   * PATCH: the viewed flag, the threshold, or both. A threshold is checked as creation checks it,
   * and a changed one starts the rule over (see changeThreshold); the same one changes nothing.
   */
  async update(caller: Caller, id: number, patch: AlertPatchBodyT): Promise<ListedAlertT> {
    if (patch.viewed === undefined && patch.threshold === undefined) {
      throw errors.validation('body', 'body must include threshold, viewed or both');
    }
    const row = await this.deps.db.transaction(async (tx) => {
      let current = await repo.lockOwnAlert(tx, caller.teamId, id);
      if (!current) throw notFound();
      if (patch.threshold !== undefined) {
        const threshold = resolveThreshold(current.type, patch.threshold);
        if (typeof threshold !== 'number') throw errors.validation('body.threshold', threshold.problem);
        if (threshold !== current.threshold) {
          const game = await repo.catalogueGame(tx, current.universe_id);
          const watching = game ? watchingMessage(current.type, threshold, game) : null;
          current = await repo.changeThreshold(tx, id, threshold, watching);
        }
      }
      if (patch.viewed !== undefined && patch.viewed !== current.viewed) {
        current = (await repo.setViewed(tx, caller.teamId, id, patch.viewed)) ?? current;
      }
      return current;
    });
    return listed(row);
  }

  async markAllViewed(caller: Caller): Promise<ViewedAllT> {
    return { status: 'viewed', count: await repo.markAllViewed(this.deps.db, caller.teamId) };
  }

  async events(caller: Caller, id: number, limit: number): Promise<AlertEventsT> {
    if (!(await repo.ownAlert(this.deps.db, caller.teamId, id))) throw notFound();
    const rows = await repo.listFirings(this.deps.db, id, limit);
    return {
      events: rows.map((r) => ({
        fired_at: r.fired_at.toISOString(),
        message: r.message,
        details: r.details,
      })),
    };
  }
}
