/**
 * The auth guard every /api route declares through `config.access`: who may call (public,
 * optional, signed-in user, or user-or-read-key), CSRF for cookie-authenticated state changes,
 * the plan gate, admin-only routes and the per-caller rate limit. It runs on onRequest, before
 * the body is parsed, so a refused request costs nothing more. It also writes each rule into the
 * route's OpenAPI entry (security schemes and the 401/403/429 answers).
 */
import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import type {
  AnonymousPrincipal,
  Authenticator,
  KeyPrincipal,
  Principal,
  UserPrincipal,
} from '../identity.js';
import { KEY_LOOKUPS_BLOCKED_DETAIL, type Kv, lookUpKey, type RateRule } from '../kv/index.js';
import { type Entitlements, type PlanName, planAtLeast, teamActive } from '../plans.js';
import { can, PERMISSIONS, type Permission } from '../roles.js';
import { ACCESS_COOKIE } from './cookies.js';
import type { CsrfTokens } from './csrf.js';
import { ErrorRef } from './schemas.js';

export type AuthMode = 'public' | 'optional' | 'read' | 'user' | 'sdk';

export interface AccessRule {
  /**
   * public: no credentials are looked at (login, register, refresh); rate limited per IP in the
   * "auth" bucket, apart from anonymous reads.
   * optional: anonymous callers, users and `read` API keys. read: users and `read` keys.
   * user: a signed-in user (cookie or bearer) only; API keys get 403 api_key_read_only.
   * sdk: a signed-in user, or an API key with scope sdk:ingest (game servers reading what the SDK
   * needs, e.g. experiment assignments); other keys get 403 insufficient_scope.
   */
  auth: AuthMode;
  /** Lowest plan allowed (403 plan_upgrade_required below it), and the feature's name for the message. */
  plan?: PlanName;
  feature?: string;
  admin?: boolean;
  /**
   * The route acts on a team's resources. The team is the X-Team-Id header's (the personal team
   * without it); the caller must be a member whose role holds the permission (roles.ts), and a
   * shared team must be on Enterprise (its owner's plan) or it answers 403 plan_upgrade_required.
   * 'content': content.read for GET/HEAD, content.write for the rest. The caller's plan becomes
   * the team's. API keys act in their own team, with a viewer's permissions.
   */
  team?: Permission | 'content';
}

/** The header that picks the team a request acts in (the web app's team switcher sends it). */
export const TEAM_HEADER = 'x-team-id';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
  interface FastifyRequest {
    principal: Principal;
  }
}

export interface AuthDeps {
  authenticator: Authenticator;
  csrf: CsrfTokens;
  kv: Kv;
  clock: Clock;
  entitlements: Entitlements;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ANONYMOUS: AnonymousPrincipal = { kind: 'anonymous' };

async function identify(request: FastifyRequest, deps: AuthDeps): Promise<Principal> {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const m = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorization.trim());
    if (!m) throw errors.tokenInvalid('The Authorization header must be "Bearer <access token>".');
    return { kind: 'user', via: 'bearer', ...(await deps.authenticator.accessToken(m[1]!)) };
  }
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string') {
    const limit = {
      kv: deps.kv,
      perMin: deps.entitlements.apiKeyFailuresPerMin,
      nowMs: deps.clock.now().getTime(),
    };
    const found = await lookUpKey(limit, request.ip, () => deps.authenticator.apiKey(apiKey.trim()));
    if (found.kind === 'blocked') throw errors.rateLimited(found.retryAfterSec, KEY_LOOKUPS_BLOCKED_DETAIL);
    if (found.kind === 'unknown') throw errors.apiKeyInvalid();
    return { kind: 'api_key', ...found.key };
  }
  const cookie = request.cookies[ACCESS_COOKIE];
  if (cookie) return { kind: 'user', via: 'cookie', ...(await deps.authenticator.accessToken(cookie)) };
  return ANONYMOUS;
}

function teamPermission(rule: AccessRule, method: string): Permission | undefined {
  if (rule.team === 'content')
    return method === 'GET' || method === 'HEAD' ? 'content.read' : 'content.write';
  return rule.team;
}

function roleForbidden(role: string, permission: Permission) {
  return errors.forbidden(
    'role_forbidden',
    `Your role in this team (${role}) cannot ${PERMISSIONS[permission]}.`,
  );
}

/** The team a request acts in, and the caller's role and plan there (AccessRule.team). */
async function inTeam(
  request: FastifyRequest,
  principal: UserPrincipal | KeyPrincipal,
  permission: Permission,
  deps: AuthDeps,
): Promise<Principal> {
  const header = request.headers[TEAM_HEADER];
  let teamId: number | undefined;
  if (header !== undefined) {
    const text = Array.isArray(header) ? header[0] : header;
    if (!text || !/^[1-9][0-9]{0,15}$/.test(text.trim())) {
      throw errors.validation('headers.x-team-id', 'X-Team-Id must be a team id (a positive integer).');
    }
    teamId = Number(text.trim());
  }
  if (principal.kind === 'api_key') {
    if (teamId !== undefined && teamId !== principal.teamId) {
      throw errors.forbidden('api_key_team_mismatch', 'An API key acts only in the team it belongs to.');
    }
    if (!teamActive(principal.personalTeam, principal.plan)) throw errors.teamCancelled();
    if (!can('viewer', permission)) throw errors.apiKeyReadOnly();
    return principal;
  }
  if (teamId === undefined || teamId === principal.teamId) return { ...principal, role: 'owner' };
  const access = await deps.authenticator.teamAccess(principal.userId, teamId);
  if (!access) throw errors.teamNotFound();
  if (!teamActive(access.personal, access.plan)) throw errors.teamCancelled();
  if (!can(access.role, permission)) throw roleForbidden(access.role, permission);
  return { ...principal, teamId: access.teamId, plan: access.plan, role: access.role };
}

async function authorize(
  request: FastifyRequest,
  identified: Principal,
  rule: AccessRule,
  deps: AuthDeps,
): Promise<Principal> {
  if (identified.kind === 'anonymous') {
    if (rule.auth !== 'optional') throw errors.notAuthenticated();
    if (rule.plan || rule.admin) throw errors.notAuthenticated();
    return identified;
  }
  let principal: UserPrincipal | KeyPrincipal = identified;
  if (principal.kind === 'api_key' && rule.auth === 'sdk') {
    if (!principal.scopes.includes('sdk:ingest')) {
      throw errors.insufficientScope('This endpoint takes a session or an API key with scope "sdk:ingest".');
    }
  } else if (principal.kind === 'api_key') {
    if (!principal.scopes.includes('read')) {
      throw errors.insufficientScope(
        'This API key has only ingest scopes; the read API needs a key with scope "read".',
      );
    }
    if (rule.auth === 'user' || rule.admin) throw errors.apiKeyReadOnly();
  }
  if (principal.kind === 'user' && principal.via === 'cookie' && STATE_CHANGING.has(request.method)) {
    if (!deps.csrf.verifyRequest(request, principal.sessionId)) throw errors.csrfInvalid();
  }
  if (rule.admin && !(principal.kind === 'user' && principal.isAdmin)) {
    throw errors.forbidden('admin_required', 'This endpoint is for administrators.');
  }
  const permission = teamPermission(rule, request.method);
  if (permission) principal = (await inTeam(request, principal, permission, deps)) as typeof principal;
  if (rule.plan && !planAtLeast(principal.plan, rule.plan)) {
    throw errors.planUpgradeRequired(rule.plan, rule.feature ?? 'This feature');
  }
  return principal;
}

function rateBucket(
  request: FastifyRequest,
  principal: Principal,
  rule: AccessRule,
  deps: AuthDeps,
): { key: string; name: string; perMin: number } {
  // Sign-in, registration and refresh have their own per-IP bucket, so a page reading the market
  // anonymously can never make its own sign-in fail.
  if (rule.auth === 'public') {
    return { key: `rl:auth:ip:${request.ip}`, name: 'auth', perMin: deps.entitlements.authRatePerMin };
  }
  switch (principal.kind) {
    case 'user':
      return {
        key: `rl:user:${principal.userId}`,
        name: 'user',
        perMin: deps.entitlements.plans[principal.plan].readRatePerMin,
      };
    case 'api_key':
      return {
        key: `rl:key:${principal.keyId}`,
        name: 'api_key',
        perMin: deps.entitlements.plans[principal.plan].readRatePerMin,
      };
    default:
      return { key: `rl:ip:${request.ip}`, name: 'anonymous', perMin: deps.entitlements.anonymousRatePerMin };
  }
}

async function rateLimit(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  rule: AccessRule,
  deps: AuthDeps,
): Promise<void> {
  const bucket = rateBucket(request, principal, rule, deps);
  const rate: RateRule = { burst: bucket.perMin, emissionMs: 60_000 / bucket.perMin };
  const d = await deps.kv.rateLimit(bucket.key, rate, deps.clock.now().getTime());
  // draft-ietf-httpapi-ratelimit-headers: the policy (quota q per window w seconds) and the state.
  reply.header('RateLimit-Policy', `"${bucket.name}";q=${bucket.perMin};w=60`);
  reply.header('RateLimit', `"${bucket.name}";r=${d.remaining};t=${d.resetSec}`);
  if (!d.allowed) throw errors.rateLimited(d.retryAfterSec);
}

function securityFor(rule: AccessRule): Record<string, string[]>[] | undefined {
  if (rule.auth === 'public') return undefined;
  const schemes: Record<string, string[]>[] = [{ bearerAuth: [] }, { cookieAuth: [] }];
  if (rule.auth === 'optional' || rule.auth === 'read' || rule.auth === 'sdk')
    schemes.push({ apiKeyAuth: [] });
  if (rule.auth === 'optional') schemes.push({});
  return schemes;
}

export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  // Set by the guard on every guarded route; unguarded routes never read it.
  app.decorateRequest('principal', null as never);
  app.addHook('onRoute', (route: RouteOptions) => {
    const rule = (route.config as { access?: AccessRule } | undefined)?.access;
    if (!rule) return;
    const guard = async (request: FastifyRequest, reply: FastifyReply) => {
      const identified = rule.auth === 'public' ? ANONYMOUS : await identify(request, deps);
      const principal =
        rule.auth === 'public' ? identified : await authorize(request, identified, rule, deps);
      request.principal = principal;
      await rateLimit(request, reply, principal, rule, deps);
    };
    const existing = route.onRequest;
    route.onRequest = [guard, ...(existing ? (Array.isArray(existing) ? existing : [existing]) : [])];
    route.schema ??= {};
    const schema = route.schema as {
      security?: unknown;
      response?: Record<string, unknown>;
      description?: string;
    };
    const security = securityFor(rule);
    if (security) schema.security = security;
    schema.response ??= {};
    const response = schema.response;
    response[429] ??= ErrorRef;
    if (rule.auth !== 'public') response[401] ??= ErrorRef;
    if (rule.auth !== 'public' && rule.auth !== 'optional') response[403] ??= ErrorRef;
    if (rule.plan || rule.admin || rule.auth === 'user') response[403] ??= ErrorRef;
    if (rule.team) {
      const headers = (route.schema as { headers?: { type?: string; properties?: Record<string, unknown> } })
        .headers ?? { type: 'object', properties: {} };
      headers.properties ??= {};
      headers.properties[TEAM_HEADER] ??= {
        type: 'string',
        pattern: '^[1-9][0-9]{0,15}$',
        description:
          'The team to act in (an id from GET /api/team/memberships); your personal team without it. API keys act in their own team.',
      };
      (route.schema as { headers?: unknown }).headers = headers;
      response[404] ??= ErrorRef;
    }
    const permission = rule.team === 'content' ? 'content.read (GET) or content.write' : rule.team;
    const notes = [
      rule.team
        ? `Acts in the team of the X-Team-Id header (your personal team without it, where you are the owner). Your role there needs the permission ${permission} (403 role_forbidden); a team you are not in: 404 team_not_found; a shared team whose owner left Enterprise: 403 plan_upgrade_required. An API key acts in its own team only (another X-Team-Id: 403 api_key_team_mismatch).`
        : '',
      rule.plan ? `Requires the ${rule.plan} plan or higher (403 plan_upgrade_required).` : '',
      rule.admin ? 'Administrators only (403 admin_required).' : '',
      rule.auth === 'user' ? 'API keys are refused (403 api_key_read_only).' : '',
      rule.auth === 'sdk'
        ? 'Takes a session or an API key with scope sdk:ingest in X-API-Key (other keys: 403 insufficient_scope).'
        : '',
      rule.auth === 'optional' || rule.auth === 'read' || rule.auth === 'sdk'
        ? "After too many unknown API keys (401 api_key_invalid) from one IP within a minute (20 by default), that IP's X-API-Key requests get 429 rate_limited with Retry-After for a minute, without a lookup."
        : '',
      rule.auth !== 'public'
        ? 'Cookie-authenticated POST/PUT/PATCH/DELETE need X-CSRF-Token (403 csrf_invalid).'
        : '',
      rule.auth === 'public'
        ? 'Rate limited per IP in the "auth" bucket (shared by sign-in, registration and refresh, apart from anonymous reads): RateLimit-Policy and RateLimit headers; 429 rate_limited with Retry-After.'
        : 'Rate limited per user, API key or anonymous IP: RateLimit-Policy and RateLimit headers; 429 rate_limited with Retry-After.',
    ].filter(Boolean);
    // A GET and the HEAD Fastify adds for it share one schema object: note each rule once.
    const base = schema.description ?? '';
    schema.description = [base, ...notes.filter((n) => !base.includes(n))].filter(Boolean).join('\n\n');
  });
}
