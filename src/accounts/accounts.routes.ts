import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { actorOf } from '../audit/index.js';
import { errors } from '../errors.js';
import { clearSessionCookies, REFRESH_COOKIE, setSessionCookies } from '../http/cookies.js';
import type { CsrfTokens } from '../http/csrf.js';
import { type App, requireUser } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { parsePlan } from '../plans.js';
import {
  AdminUserPatch,
  ChangePasswordBody,
  ForgotPasswordBody,
  LoginBody,
  LoginResult,
  type LoginResultT,
  RefreshBody,
  RegisterBody,
  ResetPasswordBody,
  StatusLiteral,
  User,
  UserIdParams,
  VerifyEmailBody,
} from './accounts.schemas.js';
import type { AccountsService, Session } from './accounts.service.js';
import { ACCESS_TTL_SEC, REFRESH_TTL_SEC } from './tokens.js';

export interface AccountsRouteDeps {
  accounts: AccountsService;
  csrf: CsrfTokens;
  secureCookies: boolean;
}

/**
 * Browsers send Origin or Sec-Fetch-Site on their requests; other clients get the refresh token in
 * the body. Sec-Fetch-Mode is no browser signal: Node's, Deno's and Bun's fetch send it too.
 */
function isNonBrowser(request: FastifyRequest): boolean {
  return request.headers.origin === undefined && request.headers['sec-fetch-site'] === undefined;
}

/** Sets the session cookies (password and provider sign-ins alike) and answers like login. */
export function answerWithSession(
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  secure: boolean,
  csrf: CsrfTokens,
): LoginResultT {
  setSessionCookies(
    reply,
    {
      accessToken: session.accessToken,
      accessTtlSec: ACCESS_TTL_SEC,
      refreshToken: session.refreshToken,
      refreshTtlSec: REFRESH_TTL_SEC,
      csrfToken: csrf.mint(session.sessionId),
    },
    secure,
  );
  reply.header('Cache-Control', 'no-store');
  return {
    access_token: session.accessToken,
    token_type: 'bearer' as const,
    expires_in: ACCESS_TTL_SEC,
    ...(isNonBrowser(request) ? { refresh_token: session.refreshToken } : {}),
  };
}

const tags = ['auth'];

export function registerAccountRoutes(app: App, deps: AccountsRouteDeps): void {
  registerRegisterRoute(app, deps);
  registerLoginRoute(app, deps);
  registerRefreshRoute(app, deps);
  registerLogoutRoute(app, deps);
  registerMeRoute(app, deps);
  registerAdminPatchRoute(app, deps);
  registerPasswordRoutes(app, deps);
  registerVerifyRoutes(app, deps);
}

function registerRegisterRoute(app: App, { accounts }: AccountsRouteDeps): void {
  app.post(
    '/api/auth/register',
    {
      config: { access: { auth: 'public' } },
      schema: {
        tags,
        summary: 'Create an Explorer account',
        description:
          'The account starts with `email_verified: false` and a verification link (single use, 24 h) is mailed ' +
          'to the address (PUBLIC_URL/verify-email?token=…; POST the token to /api/auth/verify). Unverified ' +
          'accounts work but get no alert e-mails.',
        body: RegisterBody,
        response: { 200: Type.Ref('User'), ...errorResponses(409, 422) },
      },
    },
    async (request) => accounts.register(request.body.email, request.body.password),
  );
}

function registerLoginRoute(app: App, { accounts, csrf, secureCookies }: AccountsRouteDeps): void {
  app.post(
    '/api/auth/login',
    {
      config: { access: { auth: 'public' } },
      schema: {
        tags,
        summary: 'Sign in with e-mail and password',
        description:
          'Sets svc_access, svc_refresh and svc_csrf. Bumps the token version: every earlier session of the account ends. ' +
          'A request with neither Origin nor Sec-Fetch-Site (a non-browser client) also gets `refresh_token` in the body. ' +
          'A wrong e-mail and a wrong password get the same 401. Repeated failures are slowed down (429 rate_limited with ' +
          'Retry-After, the password unchecked) per client IP and per account-and-IP pair; when one account fails from ' +
          'many addresses, only addresses that already failed on it wait: a correct password from an address that has ' +
          'not failed is never refused.',
        body: LoginBody,
        response: { 200: Type.Ref('LoginResult'), ...errorResponses(401, 422) },
      },
    },
    async (request, reply) => {
      const session = await accounts.login(
        request.body.email,
        request.body.password,
        request.ip,
        request.headers['user-agent'],
      );
      return answerWithSession(request, reply, session, secureCookies, csrf);
    },
  );
}

function registerRefreshRoute(app: App, { accounts, csrf, secureCookies }: AccountsRouteDeps): void {
  app.post(
    '/api/auth/refresh',
    {
      config: { access: { auth: 'public' } },
      schema: {
        tags,
        summary: 'Exchange a refresh token for a new token pair',
        description:
          'Reads the svc_refresh cookie (then X-CSRF-Token is required) or `refresh_token` in the body. ' +
          'Answers like login: `refresh_token` is in the body only for requests with neither Origin nor Sec-Fetch-Site. ' +
          'Single use: a consumed token presented again answers 401 refresh_reused and ends the session everywhere.',
        body: RefreshBody,
        response: { 200: Type.Ref('LoginResult'), ...errorResponses(401, 403, 422) },
      },
      // The web app posts no body at all (the token is in its cookie).
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const fromBody = request.body.refresh_token;
      const token = fromBody ?? request.cookies[REFRESH_COOKIE];
      if (!token) throw errors.notAuthenticated('Send the svc_refresh cookie or refresh_token in the body.');
      if (fromBody === undefined) {
        const sessionId = await accounts.refreshSessionId(token);
        if (!sessionId || !csrf.verifyRequest(request, sessionId)) {
          throw errors.csrfInvalid();
        }
      }
      const session = await accounts.refresh(token);
      return answerWithSession(request, reply, session, secureCookies, csrf);
    },
  );
}

function registerLogoutRoute(app: App, { accounts, secureCookies }: AccountsRouteDeps): void {
  app.post(
    '/api/auth/logout',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags,
        summary: 'End every session of the account',
        response: { 200: StatusLiteral('logged_out') },
      },
    },
    async (request, reply) => {
      await accounts.logout(requireUser(request.principal).userId);
      clearSessionCookies(reply, secureCookies);
      return { status: 'logged_out' as const };
    },
  );
}

function registerMeRoute(app: App, { accounts }: AccountsRouteDeps): void {
  app.get(
    '/api/auth/me',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags,
        summary: 'The signed-in user',
        description:
          '`plan` is the stored plan. Its entitlements apply while subscription_status is active or trialing, or ' +
          'past_due for at most 7 days; otherwise the account gets the Explorer entitlements.',
        response: { 200: Type.Ref('User') },
      },
    },
    async (request) => accounts.me(requireUser(request.principal).userId),
  );
}

function registerAdminPatchRoute(app: App, { accounts }: AccountsRouteDeps): void {
  app.patch(
    '/api/admin/users/:id',
    {
      config: { access: { auth: 'user', admin: true } },
      schema: {
        tags: ['admin'],
        summary: "Change a user's plan or subscription status",
        description:
          'A plan without subscription_status sets the status to active (none for Explorer). Entitlements follow the ' +
          'plan while the status is active or trialing, and for 7 days after it became past_due (counted from the ' +
          'last status change); canceled, none, or past_due for longer: the Explorer entitlements. The stored plan is kept.',
        params: UserIdParams,
        body: AdminUserPatch,
        response: { 200: Type.Ref('User'), ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { body } = request;
      const plan = body.plan === undefined ? undefined : parsePlan(body.plan);
      if (body.plan !== undefined && !plan) {
        throw errors.validation(
          'body.plan',
          'body.plan must be one of: Explorer, Builder, Studio, Enterprise',
        );
      }
      return accounts.updatePlan(id, { plan, status: body.subscription_status }, actorOf(request));
    },
  );
}

const MAIL_LIMIT_NOTE =
  'Rate limited per client IP and per e-mail address (whether or not it has an account): 429 rate_limited ' +
  'with Retry-After.';

function registerPasswordRoutes(app: App, { accounts, csrf, secureCookies }: AccountsRouteDeps): void {
  app.post(
    '/api/auth/password/forgot',
    {
      config: { access: { auth: 'public' } },
      schema: {
        tags,
        summary: 'Mail a password reset link',
        description:
          'Always 202 with the same body, whether or not the address has an account (no account enumeration; the ' +
          'same work is done either way). An account gets a single-use link valid for 1 hour: ' +
          'PUBLIC_URL/reset-password?token=…; POST the token to /api/auth/password/reset. ' +
          MAIL_LIMIT_NOTE,
        body: ForgotPasswordBody,
        response: { 202: StatusLiteral('accepted'), ...errorResponses(422, 429) },
      },
    },
    async (request, reply) => {
      await accounts.forgotPassword(request.body.email, request.ip);
      reply.code(202);
      return { status: 'accepted' as const };
    },
  );

  app.post(
    '/api/auth/password/reset',
    {
      config: { access: { auth: 'public' } },
      schema: {
        tags,
        summary: 'Set a new password with a mailed reset token',
        description:
          'Sets the password (10 to 128 characters), uses the token up and ends every session of the account ' +
          "(sign in again). The account's other reset links stop working and its address counts as verified. " +
          'A token that is unknown, expired or already used → 422 reset_token_invalid. Rate limited per client ' +
          'IP: 429 rate_limited with Retry-After.',
        body: ResetPasswordBody,
        response: { 200: StatusLiteral('password_reset'), ...errorResponses(422, 429) },
      },
    },
    async (request, reply) => {
      await accounts.resetPassword(
        request.body.token,
        request.body.password,
        request.ip,
        request.headers['user-agent'],
      );
      clearSessionCookies(reply, secureCookies);
      return { status: 'password_reset' as const };
    },
  );

  app.post(
    '/api/auth/password/change',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags,
        summary: 'Change the password of the signed-in user',
        description:
          'Needs the current password: a wrong one → 403 current_password_wrong, and counts as a failed ' +
          'sign-in (repeated failures are slowed down: 429 rate_limited with Retry-After). Success ends every ' +
          'session of the account, this one included, and answers like login with a new session (new cookies).',
        body: ChangePasswordBody,
        response: { 200: Type.Ref('LoginResult'), ...errorResponses(422, 429) },
      },
    },
    async (request, reply) => {
      const session = await accounts.changePassword(
        requireUser(request.principal).userId,
        request.body.current_password,
        request.body.new_password,
        request.ip,
        request.headers['user-agent'],
      );
      return answerWithSession(request, reply, session, secureCookies, csrf);
    },
  );
}

function registerVerifyRoutes(app: App, { accounts }: AccountsRouteDeps): void {
  app.post(
    '/api/auth/verify',
    {
      config: { access: { auth: 'public' } },
      schema: {
        tags,
        summary: 'Confirm an e-mail address with the mailed token',
        description:
          'Uses the token from the verification link up; the account gets `email_verified: true` (and alert ' +
          'e-mails). Needs no session. A token that is unknown, expired or already used → 422 ' +
          'verification_token_invalid. Rate limited per client IP: 429 rate_limited with Retry-After.',
        body: VerifyEmailBody,
        response: { 200: StatusLiteral('verified'), ...errorResponses(422, 429) },
      },
    },
    async (request) => {
      await accounts.verifyEmail(request.body.token, request.ip);
      return { status: 'verified' as const };
    },
  );

  app.post(
    '/api/auth/verify/resend',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags,
        summary: 'Mail a new verification link to the signed-in user',
        description:
          'Earlier links keep working until they expire. An address already verified → 409 ' +
          `email_already_verified. ${MAIL_LIMIT_NOTE}`,
        response: { 202: StatusLiteral('sent'), ...errorResponses(409, 429) },
      },
    },
    async (request, reply) => {
      await accounts.resendVerification(requireUser(request.principal).userId, request.ip);
      reply.code(202);
      return { status: 'sent' as const };
    },
  );
}

export const accountSchemas = [User, LoginResult];
