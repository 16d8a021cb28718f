/**
 * Who is calling: the principal the auth guard (http/auth.ts) puts on every request, and the
 * authenticator port the accounts domain implements. Neutral: http/, ingest and every domain
 * import it; it imports nothing but the plan names.
 */
import type { PlanName } from './plans.js';
import type { Role } from './roles.js';

export interface UserPrincipal {
  kind: 'user';
  userId: number;
  teamId: number;
  plan: PlanName;
  isAdmin: boolean;
  sessionId: string;
  via: 'cookie' | 'bearer';
  /**
   * The caller's role in `teamId`. Routes that act on a team (AccessRule.team) resolve the team
   * from X-Team-Id (the personal team without it, where the user is owner) and set this; on other
   * routes teamId is the personal team and role is absent.
   */
  role?: Role;
}

export interface KeyPrincipal {
  kind: 'api_key';
  keyId: number;
  userId: number;
  teamId: number;
  /** The plan of the key's team (its owner's entitled plan). */
  plan: PlanName;
  scopes: string[];
  /** Whether the key belongs to a personal team (false: a shared team, which needs Enterprise). */
  personalTeam: boolean;
}

export interface AnonymousPrincipal {
  kind: 'anonymous';
}

export type Principal = UserPrincipal | KeyPrincipal | AnonymousPrincipal;

/** What the auth guard needs from the accounts domain (injected, so http/ does not depend on it). */
export interface Authenticator {
  accessToken(token: string): Promise<Omit<UserPrincipal, 'kind' | 'via'>>;
  /** The live key behind `secret`, or null when it is unknown or revoked. */
  apiKey(secret: string): Promise<Omit<KeyPrincipal, 'kind'> | null>;
  /** The user's membership of a team (role, the team's plan), or null when they are not in it. */
  teamAccess(userId: number, teamId: number): Promise<TeamAccess | null>;
}

export interface TeamAccess {
  teamId: number;
  role: Role;
  personal: boolean;
  /** The team's plan: its owner's entitled plan. A shared team below Enterprise is cancelled. */
  plan: PlanName;
}

/** The plan whose data shape a caller gets (anonymous callers see Explorer's). */
export function effectivePlan(principal: Principal): PlanName {
  return principal.kind === 'anonymous' ? 'Explorer' : principal.plan;
}
