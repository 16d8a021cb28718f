/**
 * Accounts: users and their personal teams, plans and entitlements, passwords (argon2id), access
 * JWTs, rotating refresh tokens, API keys, demo accounts. Owns the users/teams/refresh_tokens/
 * api_keys tables. It does not decide HTTP concerns (cookies, CSRF, guards live in http/); routes
 * here only translate requests into service calls.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AuditService } from '../audit/index.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import type { CsrfTokens } from '../http/csrf.js';
import type { Authenticator } from '../identity.js';
import type { Kv } from '../kv/index.js';
import type { Entitlements } from '../plans.js';
import type { MailTransport } from '../tracking/delivery/index.js';
import { AccountMailer } from './account-mail.js';
import { accountSchemas, registerAccountRoutes } from './accounts.routes.js';
import { AccountsService } from './accounts.service.js';
import { adminSchemas, registerAdminRoutes } from './admin.routes.js';
import { apiKeySchemas, registerApiKeyRoutes } from './api-keys.routes.js';
import { ApiKeysService } from './api-keys.service.js';
import { planSchemas, registerPlanRoutes } from './plans.routes.js';
import { TokenSigner } from './tokens.js';

export { type AccountMail, AccountMailer } from './account-mail.js';
export { AccountsService, normaliseEmail, type SignInContext, type User } from './accounts.service.js';
export { API_KEY_SCOPES, type ApiKeyScope, ApiKeysService, INGEST_SCOPES } from './api-keys.service.js';
export { type DemoAccounts, demoEmail, ensureDemoAccounts } from './demo.js';
export { createOAuth, type OAuthService, registerOAuth } from './oauth/index.js';
export { newAccountToken, sha256, TokenSigner } from './tokens.js';

export interface Accounts {
  accounts: AccountsService;
  /** Sends the verification and reset e-mails (idle(): every SMTP send started has finished). */
  mailer: AccountMailer;
  apiKeys: ApiKeysService;
  /** Access tokens and API keys (the composition root adds teams' membership lookup). */
  authenticator: Omit<Authenticator, 'teamAccess'>;
}

export function createAccounts(deps: {
  db: Db;
  kv: Kv;
  clock: Clock;
  jwtSecret: string;
  audit: AuditService;
  /** PUBLIC_URL: the mailed links point at its web pages. */
  publicUrl: string;
  /** SMTP for the account e-mails; none: they go to the outbox table (`svc outbox`). */
  mailTransport?: MailTransport | undefined;
  log?: FastifyBaseLogger | undefined;
}): Accounts {
  const signer = new TokenSigner(deps.jwtSecret);
  const mailer = new AccountMailer({
    db: deps.db,
    clock: deps.clock,
    transport: deps.mailTransport,
    log: deps.log,
  });
  const accounts = new AccountsService({
    db: deps.db,
    kv: deps.kv,
    clock: deps.clock,
    signer,
    mailer,
    publicUrl: deps.publicUrl,
    audit: deps.audit,
  });
  const apiKeys = new ApiKeysService({ db: deps.db, clock: deps.clock, audit: deps.audit });
  const authenticator: Omit<Authenticator, 'teamAccess'> = {
    async accessToken(token) {
      const s = await accounts.authenticateAccessToken(token);
      return { userId: s.userId, teamId: s.teamId, plan: s.plan, isAdmin: s.isAdmin, sessionId: s.sessionId };
    },
    apiKey: (secret) => apiKeys.find(secret),
  };
  return { accounts, mailer, apiKeys, authenticator };
}

export function registerAccounts(
  app: FastifyInstance,
  a: Accounts,
  options: { csrf: CsrfTokens; secureCookies: boolean; entitlements: Entitlements },
): void {
  for (const schema of [...accountSchemas, ...apiKeySchemas, ...planSchemas, ...adminSchemas]) {
    app.addSchema(schema);
  }
  registerAccountRoutes(app, {
    accounts: a.accounts,
    csrf: options.csrf,
    secureCookies: options.secureCookies,
  });
  registerApiKeyRoutes(app, a.apiKeys);
  registerPlanRoutes(app, options.entitlements);
  registerAdminRoutes(app, a.accounts);
}
