/**
 * Who is calling: the principal the auth guard (http/auth.ts) puts on every request, and the
 * authenticator port the accounts domain implements. Neutral: http/, ingest and every domain
 * import it; it imports nothing but the plan names.
 */
import type { PlanName } from './plans.js';

export interface UserPrincipal {
  kind: 'user';
  userId: number;
  teamId: number;
  plan: PlanName;
  isAdmin: boolean;
  sessionId: string;
  via: 'cookie' | 'bearer';
}

export interface KeyPrincipal {
  kind: 'api_key';
  keyId: number;
  userId: number;
  teamId: number;
  plan: PlanName;
  scopes: string[];
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
}

/** The plan whose data shape a caller gets (anonymous callers see Explorer's). */
export function effectivePlan(principal: Principal): PlanName {
  return principal.kind === 'anonymous' ? 'Explorer' : principal.plan;
}
