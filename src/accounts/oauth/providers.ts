/**
 * The sign-in providers: what each one is called, how its authorization URL is built and how a
 * callback becomes a profile (subject, e-mail and whether the provider verified it, a name).
 * Google and Roblox are OpenID Connect (openid-client: discovery, PKCE, nonce, ID token checks);
 * Discord and X are plain OAuth 2.0 with PKCE and their documented user endpoints.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { OAuthConfig, OAuthProviderId } from '../../config.js';
import { oidcProvider } from './oidc.js';
import { discordProvider, xProvider } from './plain-oauth2.js';

export interface ProviderProfile {
  /** The provider's stable id of the account (OIDC `sub`, Discord's and X's user id). */
  subject: string;
  /** Lower-cased; absent when the provider gives none (Roblox, X) or an unusable one. */
  email: string | undefined;
  emailVerified: boolean;
  displayName: string | undefined;
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  nonce?: string | undefined;
}

export interface CallbackChecks {
  redirectUri: string;
  state: string;
  codeVerifier: string;
  nonce?: string | undefined;
}

export interface OAuthProvider {
  readonly id: OAuthProviderId;
  readonly name: string;
  /** OpenID Connect providers bind their ID token to the flow with a nonce. */
  readonly usesNonce: boolean;
  authorizationUrl(request: AuthorizationRequest): Promise<URL>;
  /**
   * Exchanges the callback's code (PKCE, and for OIDC the state, issuer and ID token checks) and
   * reads who signed in. Throws the oauthErrors: codeInvalid, idTokenInvalid, unavailable.
   */
  profile(callback: URL, checks: CallbackChecks): Promise<ProviderProfile>;
}

export const PROVIDER_NAMES: Record<OAuthProviderId, string> = {
  google: 'Google',
  roblox: 'Roblox',
  discord: 'Discord',
  x: 'X',
};

/** Seconds any one request to a provider may take. */
export const PROVIDER_TIMEOUT_SEC = 10;

/** A usable address from a provider, lower-cased; undefined otherwise. */
export function providerEmail(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const email = value.trim().toLowerCase();
  return email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email) ? email : undefined;
}

export function optionalString(value: unknown, max = 255): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, max) : undefined;
}

/** The enabled providers in their fixed order. */
export function createProviders(config: OAuthConfig, log: FastifyBaseLogger | undefined): OAuthProvider[] {
  const providers: OAuthProvider[] = [];
  if (config.google) {
    providers.push(
      oidcProvider({ id: 'google', name: 'Google', scope: 'openid email profile', ...config.google }, log),
    );
  }
  if (config.roblox) {
    // Roblox shares no e-mail address: its sub (the user id) and username are what matter.
    providers.push(
      oidcProvider({ id: 'roblox', name: 'Roblox', scope: 'openid profile', ...config.roblox }, log),
    );
  }
  if (config.discord) providers.push(discordProvider(config.discord, log));
  if (config.x) providers.push(xProvider(config.x, log));
  return providers;
}
