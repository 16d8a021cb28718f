import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { ACCESS_COOKIE } from '../../http/cookies.js';
import type { CsrfTokens } from '../../http/csrf.js';
import { type App, requireUser } from '../../http/index.js';
import { errorResponses } from '../../http/schemas.js';
import { answerWithSession } from '../accounts.routes.js';
import type { AccountsService } from '../accounts.service.js';
import { FLOW_COOKIE, FLOW_COOKIE_PATH, FLOW_TTL_MS, type FlowState } from './flow-cookie.js';
import {
  CallbackQuery,
  IdentitiesResult,
  LinkBody,
  LinkResult,
  ProviderParams,
  ProvidersResult,
  StartQuery,
} from './oauth.schemas.js';
import type { OAuthService } from './oauth.service.js';

export interface OAuthRouteDeps {
  oauth: OAuthService;
  accounts: AccountsService;
  csrf: CsrfTokens;
  secureCookies: boolean;
}

const tags = ['auth'];
/** The web app's pages where a failed flow lands, with `?oauth_error=<code>`. */
const SIGN_IN_PAGE = '/signin';
const ACCOUNT_PAGE = '/account';

const Redirect = Type.Null({ description: 'A redirect: see the Location header.' });

function setFlowCookie(reply: FastifyReply, value: string, secure: boolean): void {
  // SameSite=Lax: the provider's redirect back is a top-level GET navigation, which carries it.
  reply.setCookie(FLOW_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: FLOW_COOKIE_PATH,
    maxAge: FLOW_TTL_MS / 1000,
  });
}

function wantsJson(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('application/json');
}

function rawQuery(request: FastifyRequest): string {
  const i = request.url.indexOf('?');
  return i === -1 ? '' : request.url.slice(i + 1);
}

export function registerOAuthRoutes(app: App, deps: OAuthRouteDeps): void {
  registerProvidersRoute(app, deps);
  registerStartRoute(app, deps);
  registerCallbackRoute(app, deps);
  registerLinkRoutes(app, deps);
}

function registerProvidersRoute(app: App, { oauth }: OAuthRouteDeps): void {
  app.get(
    '/api/auth/providers',
    {
      config: { access: { auth: 'public' } },
      schema: {
        tags,
        summary: 'The third-party sign-in providers enabled here',
        description:
          'A provider is enabled when both its OAUTH_<PROVIDER>_CLIENT_ID and _CLIENT_SECRET are configured. ' +
          'Sign in with one by navigating to /api/auth/oauth/{id}/start.',
        response: { 200: ProvidersResult },
      },
    },
    async () => ({ providers: oauth.enabled() }),
  );
}

function registerStartRoute(app: App, { oauth, secureCookies }: OAuthRouteDeps): void {
  app.get(
    '/api/auth/oauth/:provider/start',
    {
      config: { access: { auth: 'public' } },
      schema: {
        tags,
        summary: 'Start signing in with a provider (a browser navigation)',
        description:
          "Redirects (302) to the provider's sign-in page with PKCE (S256), `state` and, for the OpenID Connect " +
          'providers (Google, Roblox), `nonce`; these are kept for 10 minutes in the sealed HttpOnly cookie ' +
          'svc_oauth (path /api/auth/oauth) of this browser. The provider sends the browser back to ' +
          '/api/auth/oauth/{provider}/callback. An unknown or disabled provider → 404 provider_not_enabled; ' +
          'a provider that cannot be reached → 503 provider_unavailable.',
        params: ProviderParams,
        querystring: StartQuery,
        response: { 302: Redirect, ...errorResponses(404, 422, 503) },
      },
    },
    async (request, reply) => {
      const started = await oauth.start(request.params.provider, {
        returnTo: request.query.return_to ?? '/',
        mode: 'signin',
      });
      setFlowCookie(reply, started.cookie, secureCookies);
      reply.header('Cache-Control', 'no-store');
      return reply.redirect(started.url, 302);
    },
  );
}

/** Who the request's access cookie names, if anyone (link mode checks it is who started). */
async function cookieUser(request: FastifyRequest, accounts: AccountsService): Promise<number | undefined> {
  const token = request.cookies[ACCESS_COOKIE];
  if (!token) return undefined;
  try {
    return (await accounts.authenticateAccessToken(token)).userId;
  } catch {
    return undefined;
  }
}

function registerCallbackRoute(app: App, deps: OAuthRouteDeps): void {
  const { oauth, accounts, csrf, secureCookies } = deps;
  app.get(
    '/api/auth/oauth/:provider/callback',
    {
      config: { access: { auth: 'public' } },
      // The query carries the authorization code and state: the request log gets the path only.
      logSerializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: req.url.split('?')[0],
          host: req.host,
          remoteAddress: req.ip,
        }),
      },
      schema: {
        tags,
        summary: 'Where the provider sends the browser back',
        description:
          'Checks the state against the svc_oauth cookie (single use), then exchanges the code (PKCE; for Google ' +
          'and Roblox the ID token: signature, issuer, audience, expiry, nonce) and reads the account. Sign-in: ' +
          'a linked identity signs in to its account; else a verified provider e-mail signs in to the account ' +
          'with that address if that account verified it too (an unverified one → account_link_required); else a ' +
          'new account without a password is made (providers that share no e-mail, Roblox and X, get the ' +
          'address <provider>-<id>@users.noreply.invalid). An unverified provider e-mail → ' +
          'provider_email_unverified. Link mode (started by POST /api/auth/oauth/{provider}/link) links the ' +
          'identity to the signed-in user who started it.\n\n' +
          'Browser navigation: success → 302 to `return_to` (default /) with the session cookies of a ' +
          'password sign-in (svc_access, svc_refresh, svc_csrf; every earlier session of the account ends); ' +
          'link mode → 302 to `return_to` (default /account). Failure → 302 to /signin?oauth_error=<code> ' +
          '(link mode: /account?oauth_error=<code>), and no account is made. A request with ' +
          '`Accept: application/json` gets JSON instead: 200 like POST /api/auth/login (sign-in), 204 (link), ' +
          'or the error as {detail, code}: 400 oauth_state_invalid (missing, wrong, expired or replayed ' +
          'state, or another browser), 400 oauth_provider_error (the provider sent error=, e.g. the user ' +
          'cancelled), 400 oauth_code_invalid (the provider refused the code: used or expired), 400 ' +
          'oauth_id_token_invalid (wrong nonce or a bad ID token), 401 oauth_link_session_lost, 403 ' +
          'provider_email_unverified, 404 provider_not_enabled, 409 account_link_required, 409 ' +
          'identity_linked_elsewhere, 409 provider_already_linked, 503 provider_unavailable.',
        params: ProviderParams,
        querystring: CallbackQuery,
        response: {
          200: Type.Ref('LoginResult'),
          204: Type.Null({ description: 'Link mode, JSON: linked.' }),
          302: Redirect,
          ...errorResponses(400, 401, 403, 404, 409, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const { provider } = request.params;
      const flow = oauth.openFlow(provider, request.cookies[FLOW_COOKIE]);
      // The cookie has done its work whatever happens next.
      reply.clearCookie(FLOW_COOKIE, {
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookies,
        path: FLOW_COOKIE_PATH,
      });
      reply.header('Cache-Control', 'no-store');
      try {
        const done = await oauth.finish(provider, flow, rawQuery(request), {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          currentUserId: flow?.mode === 'link' ? await cookieUser(request, accounts) : undefined,
        });
        if (done.kind === 'linked') {
          if (wantsJson(request)) return reply.code(204).send(null);
          return reply.redirect(done.returnTo, 302);
        }
        const body = answerWithSession(request, reply, done.session, secureCookies, csrf);
        if (wantsJson(request)) return body;
        return reply.redirect(done.returnTo, 302);
      } catch (err) {
        return failed(request, reply, err, flow);
      }
    },
  );
}

/** A failed callback: JSON callers get the error; a browser goes back to the page it came from. */
function failed(request: FastifyRequest, reply: FastifyReply, err: unknown, flow: FlowState | undefined) {
  if (wantsJson(request)) throw err;
  let code = 'server_error';
  if (err instanceof AppError) code = err.code;
  else request.log.error({ err }, 'oauth callback failed');
  const page = flow?.mode === 'link' ? ACCOUNT_PAGE : SIGN_IN_PAGE;
  if (err instanceof AppError) request.log.info({ code }, 'oauth sign-in refused');
  return reply.redirect(`${page}?oauth_error=${encodeURIComponent(code)}`, 302);
}

function registerLinkRoutes(app: App, { oauth, secureCookies }: OAuthRouteDeps): void {
  app.post(
    '/api/auth/oauth/:provider/link',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags,
        summary: 'Start linking a provider to the signed-in account',
        description:
          'Answers the URL of the provider\u2019s sign-in page and sets the svc_oauth cookie; send the browser there. ' +
          'The callback then links that provider account to this user (when it is linked to another account: ' +
          'identity_linked_elsewhere; when this account has another account of that provider: ' +
          'provider_already_linked) and returns to `return_to` (default /account). 404 provider_not_enabled.',
        params: ProviderParams,
        body: LinkBody,
        response: { 200: LinkResult, ...errorResponses(404, 422, 503) },
      },
      // The web app may post no body at all.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const user = requireUser(request.principal);
      const started = await oauth.start(request.params.provider, {
        returnTo: request.body.return_to ?? '/account',
        mode: 'link',
        userId: user.userId,
      });
      setFlowCookie(reply, started.cookie, secureCookies);
      reply.header('Cache-Control', 'no-store');
      return { authorize_url: started.url };
    },
  );

  app.delete(
    '/api/auth/oauth/:provider',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags,
        summary: 'Unlink a provider from the signed-in account',
        description:
          'Refused with 409 last_sign_in_method when the account has no password and no other linked provider. ' +
          '404 identity_not_linked when none is linked; 404 provider_not_enabled for an unknown provider.',
        params: ProviderParams,
        response: { 200: Type.Object({ status: Type.Literal('unlinked') }), ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await oauth.unlink(requireUser(request.principal).userId, request.params.provider);
      return { status: 'unlinked' as const };
    },
  );

  app.get(
    '/api/auth/identities',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags,
        summary: "The signed-in account's linked providers",
        response: { 200: IdentitiesResult },
      },
    },
    async (request) => oauth.identities(requireUser(request.principal).userId),
  );
}
