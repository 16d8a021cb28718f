/**
 * createServices(deps): every domain service, built exactly once, in one typed object. The HTTP
 * app (app.ts: buildApp(services) registers routes only) and the background roles (main.ts: the
 * jobs and workers of jobs/catalog.ts) all take this object, so a request and a job reach the same
 * instances. It opens nothing (the database, store and platform are handed in) and starts nothing
 * (main.ts starts the workers and the scheduler); close() stops what it built (Dev Lens threads).
 * A new domain adds its `createX(deps)` here, its `registerX(app, services.x)` in app.ts and its
 * background work in jobs/catalog.ts.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Accounts, createAccounts, createOAuth, type OAuthService } from './accounts/index.js';
import { type Analytics, createAnalytics } from './analytics/index.js';
import { AuditService } from './audit/index.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import { createDevLens, type DevLens, type DevLensLimits, type NarrativeProvider } from './devlens/index.js';
import { createGames, type Games } from './games/index.js';
import { CsrfTokens } from './http/index.js';
import type { Authenticator } from './identity.js';
import { createIngest, type IngestMode, type IngestQueue, type IngestRuntime } from './ingest/index.js';
import { createIntelligence, type Intelligence } from './intelligence/index.js';
import { createKeywords, type KeywordService } from './keywords/index.js';
import type { Kv } from './kv/index.js';
import { type CollectorDeps, collectorDeps, MarketService } from './market/index.js';
import type { CatalogSource, PlatformSource } from './platform/index.js';
import { createTeams, type TeamsService } from './teams/index.js';
import { smtpTransport } from './tracking/delivery/index.js';
import { createTracking, SecretBox, type Tracking } from './tracking/index.js';
import { type CatalogCollectorDeps, createUgc, type UgcService } from './ugc/index.js';
import { createUpdates, type UpdateImpactService } from './updates/index.js';

export interface ServiceDeps {
  config: Config;
  db: Db;
  kv: Kv;
  clock: Clock;
  /** The market data source: the collector reads it, tracking fetches games the catalogue lacks.
   * Absent (tests): no collector, and an uncollected game is unknown (404). */
  platform?: PlatformSource;
  /** The UGC catalog source (PLATFORM_SOURCE picks it too). Absent (tests): no catalog collector. */
  catalog?: CatalogSource;
  /** Where services and background work log (the app logs requests through its own logger, with
   * the same options). */
  log: FastifyBaseLogger;
  /** Signs access tokens and CSRF tokens (main.ts: JWT_SECRET or the one generated into DATA_DIR). */
  jwtSecret: string;
  /** Encrypts webhook secrets at rest (main.ts: SECRETS_KEY or DATA_DIR's key). Absent (tests):
   * SECRETS_KEY when set, else a key made up for these services alone. */
  secrets?: SecretBox;
  /** Dev Lens threads and caps (defaultLimits() unless given), and its narrative writer. */
  devLens?: { limits?: DevLensLimits; narrative?: NarrativeProvider };
  /** Ingest overrides (tests): the queue, the starting mode, the writer's interval. */
  ingest?: { queue?: IngestQueue; mode?: IngestMode; writerIntervalMs?: number };
}

export interface Services {
  config: Config;
  db: Db;
  kv: Kv;
  clock: Clock;
  platform: PlatformSource | undefined;
  log: FastifyBaseLogger;
  secrets: SecretBox;
  csrf: CsrfTokens;
  accounts: Accounts;
  /** Who is calling: accounts' tokens and keys, and teams' membership lookup (X-Team-Id). */
  authenticator: Authenticator;
  /** The append-only audit log. */
  audit: AuditService;
  /** Shared teams, roles, invitations. */
  teams: TeamsService;
  /** Sign-in with Google, Roblox, Discord and X (the providers configured). */
  oauth: OAuthService;
  market: {
    /** The market endpoints' answers, pre-serialised from the stored views. */
    views: MarketService;
    /** The collector (collect-market job), views refreshed and alerts evaluated after each run;
     * absent without a platform. */
    collector: CollectorDeps | undefined;
  };
  games: Games;
  /** Game updates and their impact (the collector records them; measure-update-impact measures). */
  updates: UpdateImpactService;
  /** The public UGC catalog: its reads, and the collector (collect-ugc-catalog) when a catalog source is given. */
  ugc: { service: UgcService; collector: CatalogCollectorDeps | undefined };
  /** Keywords of titles and descriptions (refreshed after each collection and by refresh-keywords). */
  keywords: KeywordService;
  /** Creators, follows and the feed, success patterns, clone lists. */
  intelligence: Intelligence;
  tracking: Tracking;
  devLens: DevLens;
  ingest: IngestRuntime;
  analytics: Analytics;
  /** Stops what the services hold beyond the handed-in connections (Dev Lens threads). The caller
   * closes the database, store and platform it opened. */
  close(): Promise<void>;
}

/** Games whose clones are looked for after a collection (a fresh install's whole backfill). */
const CLONES_AFTER_COLLECTION = 5000;

export function createServices(deps: ServiceDeps): Services {
  const { config, db, kv, clock, platform, log } = deps;
  const entitlements = config.entitlements;
  const domain = { db, clock, entitlements };
  const secrets =
    deps.secrets ??
    new SecretBox({ current: config.secretsKey ?? randomBytes(32), previous: config.secretsKeyPrevious });
  const audit = new AuditService({ db, clock });
  const accounts = createAccounts({
    db,
    kv,
    clock,
    audit,
    jwtSecret: deps.jwtSecret,
    publicUrl: config.publicUrl,
    mailTransport: config.smtpUrl ? smtpTransport(config.smtpUrl) : undefined,
    log,
  });
  const teams = createTeams({
    db,
    clock,
    kv,
    accounts: accounts.accounts,
    entitlements,
    audit,
    mailer: accounts.mailer,
    publicUrl: config.publicUrl,
  });
  const authenticator: Authenticator = {
    ...accounts.authenticator,
    teamAccess: (userId, teamId) => teams.access(userId, teamId),
  };
  const tracking = createTracking({
    ...domain,
    ...(platform ? { platform } : {}),
    webhookAllowPrivate: config.webhookAllowPrivate,
    secrets,
    smtpUrl: config.smtpUrl,
    log,
  });
  const updates = createUpdates(domain);
  const keywords = createKeywords(domain);
  const intelligence = createIntelligence({ ...domain, updates });
  const devLens = createDevLens({ ...domain, ...deps.devLens });
  const ingest = createIngest({
    ...domain,
    kv,
    authenticator: accounts.authenticator,
    natsUrl: config.natsUrl,
    natsStream: config.natsIngestStream,
    eventRetentionDays: config.sdkEventRetentionDays,
    dedupeHorizonDays: config.sdkDedupeHorizonDays,
    log,
    ...deps.ingest,
  });
  return {
    config,
    db,
    kv,
    clock,
    platform,
    log,
    secrets,
    csrf: new CsrfTokens(deps.jwtSecret),
    accounts,
    authenticator,
    audit,
    teams,
    oauth: createOAuth({
      db,
      kv,
      clock,
      accounts: accounts.accounts,
      config: config.oauth,
      publicUrl: config.publicUrl,
      serverSecret: deps.jwtSecret,
      log,
    }),
    market: {
      views: new MarketService(domain),
      // Alerts are evaluated on the data each collection brings, as soon as its views are stored;
      // updates whose 7 days have just passed (after a backfill, every one it can) are measured;
      // new or changed games get their keywords, and a newly rolled-up day its keyword lists, and
      // their clone pairs (a bounded number per collection; detect-clones does the rest); then the
      // feed's market events (launches, records, rank entries, clones; updates as they are recorded).
      collector: platform
        ? collectorDeps(
            db,
            platform,
            log,
            async (now) => {
              await tracking.evaluateAlerts(now);
              await updates.measureDue(now);
              await keywords.refresh(now);
              await intelligence.clones.detect(now, { maxGames: CLONES_AFTER_COLLECTION });
              await intelligence.feed.produce(now);
            },
            async (tx, seen) => {
              await updates.record(tx, seen);
              await intelligence.feed.recordUpdates(tx, seen);
            },
          )
        : undefined,
    },
    games: createGames(domain),
    updates,
    ugc: {
      service: createUgc({ db, clock }),
      collector: deps.catalog ? { db, source: deps.catalog, log } : undefined,
    },
    keywords,
    intelligence,
    tracking,
    devLens,
    ingest,
    analytics: createAnalytics(domain),
    close: () => devLens.close(),
  };
}
