/**
 * Sign-in with Google, Roblox, Discord and X (part of accounts): the enabled providers, the
 * authorization code flow with PKCE, state and nonce, the user_identities table and the rules that
 * turn a provider account into a svc account. Sessions come from AccountsService.sessionFor, so a
 * provider sign-in ends in the same cookies and single-session rule as a password one. It never
 * reads the environment (config.ts gives it the providers) and talks to no provider in tests
 * beyond the local ones the tests start.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import type { OAuthConfig } from '../../config.js';
import type { Db } from '../../db/index.js';
import type { CsrfTokens } from '../../http/csrf.js';
import type { Kv } from '../../kv/index.js';
import type { AccountsService } from '../accounts.service.js';
import { FlowSealer } from './flow-cookie.js';
import { registerOAuthRoutes } from './oauth.routes.js';
import { oauthSchemas } from './oauth.schemas.js';
import { OAuthService } from './oauth.service.js';
import { createProviders } from './providers.js';

export { OAuthService } from './oauth.service.js';
export type { OAuthProvider, ProviderProfile } from './providers.js';

export function createOAuth(deps: {
  db: Db;
  kv: Kv;
  clock: Clock;
  accounts: AccountsService;
  config: OAuthConfig;
  /** PUBLIC_URL: the redirect URIs registered with each provider are under it. */
  publicUrl: string;
  /** Seals the flow cookie (a key derived from it, of its own). */
  serverSecret: string;
  log?: FastifyBaseLogger | undefined;
}): OAuthService {
  return new OAuthService({
    db: deps.db,
    kv: deps.kv,
    clock: deps.clock,
    accounts: deps.accounts,
    providers: createProviders(deps.config, deps.log),
    sealer: new FlowSealer(deps.serverSecret),
    publicUrl: deps.publicUrl,
    log: deps.log,
  });
}

export function registerOAuth(
  app: FastifyInstance,
  oauth: OAuthService,
  options: { accounts: AccountsService; csrf: CsrfTokens; secureCookies: boolean },
): void {
  for (const schema of oauthSchemas) app.addSchema(schema);
  registerOAuthRoutes(app, { oauth, ...options });
}
