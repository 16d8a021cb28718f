/**
 * Plans and entitlements (spec/DECISIONS.md §2): the one table in code every feature asks.
 * Numbers can be overridden by configuration (ENTITLEMENTS, a JSON object) without code changes.
 */
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';

export const PLANS = ['Explorer', 'Builder', 'Studio', 'Enterprise'] as const;
export type PlanName = (typeof PLANS)[number];
export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'canceled', 'none'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** How long a past_due account keeps its plan's entitlements after its status became past_due. */
export const PAST_DUE_GRACE_MS = 7 * 86_400_000;

/**
 * The plan whose entitlements an account gets: its stored plan while the subscription is `active`
 * or `trialing`, or `past_due` for at most 7 days since the status changed; otherwise (`canceled`,
 * `none`, past_due for longer) Explorer's. The stored plan itself is kept (GET /api/auth/me shows it).
 */
export function entitledPlan(
  plan: PlanName,
  status: SubscriptionStatus,
  statusSince: Date,
  now: Date,
): PlanName {
  if (status === 'active' || status === 'trialing') return plan;
  if (status === 'past_due' && now.getTime() - statusSince.getTime() <= PAST_DUE_GRACE_MS) return plan;
  return 'Explorer';
}

/** Plan names are matched case-insensitively on input and always written capitalised. */
export function parsePlan(input: string): PlanName | undefined {
  const lower = input.trim().toLowerCase();
  return PLANS.find((p) => p.toLowerCase() === lower);
}

export function planRank(plan: PlanName): number {
  return PLANS.indexOf(plan);
}

export function planAtLeast(plan: PlanName, required: PlanName): boolean {
  return planRank(plan) >= planRank(required);
}

/** The plan a shared team needs: its owner's. Below it the team is cancelled (nothing deleted). */
export const TEAM_PLAN: PlanName = 'Enterprise';

/** Whether a team is active: a personal team always, a shared one while its owner's plan allows. */
export function teamActive(personal: boolean, ownerPlan: PlanName): boolean {
  return personal || planAtLeast(ownerPlan, TEAM_PLAN);
}

export const PlanEntitlementsSchema = Type.Object({
  /** Max `limit` on GET /api/trending; null = unlimited. */
  trendingMax: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  /** Max `limit` (per page) on the market-intelligence lists (update impact, keywords, …). */
  intelligenceListMax: Type.Integer({ minimum: 1 }),
  /** Games and creators a user may follow for the intelligence feed. */
  follows: Type.Integer({ minimum: 0 }),
  genreOpportunities: Type.Union([Type.Literal('free'), Type.Literal('full')]),
  /** ml_prediction in game detail: trend score only, or with growth probability. */
  mlPrediction: Type.Union([Type.Literal('score'), Type.Literal('detailed')]),
  /** Forecast points and whether bounds are shown; null = not available (403). */
  forecast: Type.Union([
    Type.Object({ points: Type.Integer({ minimum: 1 }), bounds: Type.Boolean() }),
    Type.Null(),
  ]),
  trackedGames: Type.Integer({ minimum: 0 }),
  alerts: Type.Integer({ minimum: 0 }),
  alertDelivery: Type.Array(
    Type.Union([Type.Literal('in_app'), Type.Literal('email'), Type.Literal('webhook')]),
  ),
  devLens: Type.Boolean(),
  monthlySdkEvents: Type.Integer({ minimum: 0 }),
  /** Days of SDK analytics history readable back from today (today included); null = unlimited. */
  sdkHistoryDays: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  /** Read API requests per minute, per user or per API key. */
  readRatePerMin: Type.Integer({ minimum: 1 }),
  /** Seats of a shared team this plan's users can create (0: no shared teams); a service admin can override one team's. */
  teamSeats: Type.Integer({ minimum: 0 }),
});
export type PlanEntitlements = Static<typeof PlanEntitlementsSchema>;

export interface Entitlements {
  plans: Record<PlanName, PlanEntitlements>;
  /** Anonymous callers: per IP, Explorer data shape. */
  anonymousRatePerMin: number;
  /** Sign-in, registration and refresh: per IP, a bucket of their own (anonymous reads never use it up). */
  authRatePerMin: number;
  /** Failed API-key lookups per IP per minute; past it the IP's key requests get 429 without a lookup. */
  apiKeyFailuresPerMin: number;
  /** SDK ingest per key: token bucket. */
  ingestBurst: number;
  ingestPerSecond: number;
}

export const DEFAULT_ENTITLEMENTS: Entitlements = {
  plans: {
    Explorer: {
      trendingMax: 20,
      intelligenceListMax: 10,
      follows: 10,
      genreOpportunities: 'free',
      mlPrediction: 'score',
      forecast: null,
      trackedGames: 5,
      alerts: 5,
      alertDelivery: ['in_app'],
      devLens: false,
      monthlySdkEvents: 10_000,
      sdkHistoryDays: 30,
      readRatePerMin: 60,
      teamSeats: 0,
    },
    Builder: {
      trendingMax: 100,
      intelligenceListMax: 50,
      follows: 50,
      genreOpportunities: 'full',
      mlPrediction: 'detailed',
      forecast: { points: 7, bounds: false },
      trackedGames: 25,
      alerts: 25,
      alertDelivery: ['in_app', 'email'],
      devLens: false,
      monthlySdkEvents: 1_000_000,
      sdkHistoryDays: 90,
      readRatePerMin: 300,
      teamSeats: 0,
    },
    Studio: {
      trendingMax: null,
      intelligenceListMax: 200,
      follows: 200,
      genreOpportunities: 'full',
      mlPrediction: 'detailed',
      forecast: { points: 30, bounds: true },
      trackedGames: 100,
      alerts: 100,
      alertDelivery: ['in_app', 'email', 'webhook'],
      devLens: true,
      monthlySdkEvents: 10_000_000,
      sdkHistoryDays: 365,
      readRatePerMin: 1_200,
      teamSeats: 0,
    },
    Enterprise: {
      trendingMax: null,
      intelligenceListMax: 200,
      follows: 1000,
      genreOpportunities: 'full',
      mlPrediction: 'detailed',
      forecast: { points: 30, bounds: true },
      trackedGames: 500,
      alerts: 500,
      alertDelivery: ['in_app', 'email', 'webhook'],
      devLens: true,
      monthlySdkEvents: 100_000_000,
      sdkHistoryDays: null,
      readRatePerMin: 6_000,
      teamSeats: 25,
    },
  },
  anonymousRatePerMin: 30,
  authRatePerMin: 30,
  apiKeyFailuresPerMin: 20,
  ingestBurst: 100,
  ingestPerSecond: 20,
};

/** The shape of the ENTITLEMENTS override: any subset of the table above. */
export const EntitlementsOverrideSchema = Type.Object(
  {
    plans: Type.Optional(
      Type.Object(
        Object.fromEntries(
          PLANS.map((p) => [p, Type.Optional(Type.Partial(PlanEntitlementsSchema))]),
        ) as Record<
          PlanName,
          ReturnType<typeof Type.Optional<ReturnType<typeof Type.Partial<typeof PlanEntitlementsSchema>>>>
        >,
        { additionalProperties: false },
      ),
    ),
    anonymousRatePerMin: Type.Optional(Type.Integer({ minimum: 1 })),
    authRatePerMin: Type.Optional(Type.Integer({ minimum: 1 })),
    apiKeyFailuresPerMin: Type.Optional(Type.Integer({ minimum: 1 })),
    ingestBurst: Type.Optional(Type.Integer({ minimum: 1 })),
    ingestPerSecond: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  },
  { additionalProperties: false },
);

/** Applies a validated override; returns the first problem as a sentence when it is invalid. */
export function buildEntitlements(override: unknown): Entitlements | string {
  if (override === undefined) return DEFAULT_ENTITLEMENTS;
  if (!Value.Check(EntitlementsOverrideSchema, override)) {
    const first = Value.Errors(EntitlementsOverrideSchema, override)[0];
    return first ? `${first.instancePath || '/'} ${first.message}` : 'is invalid';
  }
  const o = override as Partial<Entitlements> & {
    plans?: Partial<Record<PlanName, Partial<PlanEntitlements>>>;
  };
  const plans = Object.fromEntries(
    PLANS.map((p) => [p, { ...DEFAULT_ENTITLEMENTS.plans[p], ...(o.plans?.[p] ?? {}) }]),
  ) as Record<PlanName, PlanEntitlements>;
  return { ...DEFAULT_ENTITLEMENTS, ...o, plans };
}
