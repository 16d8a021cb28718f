/**
 * A real OpenID Connect provider (oidc-provider) on a random loopback port, standing in for Google
 * and Roblox: one client each, an interaction that logs in whichever account the test set with
 * `signInAs` and grants what the client asked for, no page to click through. Issuer
 * http://127.0.0.1:PORT (the service allows plain http only for loopback issuers).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

export interface OidcAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

export interface TestOidcProvider {
  issuer: string;
  /** Client id and secret per service provider id (google, roblox). */
  clients: Record<'google' | 'roblox', { id: string; secret: string }>;
  /** The account the next login at the provider signs in as. */
  signInAs(account: OidcAccount): void;
  /** Makes the next authorization end with `error=<error>` instead of a login. */
  refuseNext(error: string): void;
  close(): Promise<void>;
}

export async function startOidcProvider(publicUrl: string): Promise<TestOidcProvider> {
  const accounts = new Map<string, OidcAccount>();
  let current: OidcAccount | undefined;
  let refusal: string | undefined;
  const clients = {
    google: { id: 'google-test-client', secret: 'google-test-secret-0123456789' },
    roblox: { id: 'roblox-test-client', secret: 'roblox-test-secret-0123456789' },
  };
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: (['google', 'roblox'] as const).map((p) => ({
      client_id: clients[p].id,
      client_secret: clients[p].secret,
      redirect_uris: [`${publicUrl}/api/auth/oauth/${p}/callback`],
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
    },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ ...account }) };
    },
  };
  const provider = new Provider(issuer, configuration);
  // Its errors (a replayed code, …) are answers the tests expect, not something to print.
  provider.on('server_error', () => {});
  const handle = provider.callback();

  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      handle(req, res);
      return;
    }
    interact(req, res).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });

  async function interact(
    req: Parameters<typeof handle>[0],
    res: Parameters<typeof handle>[1],
  ): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (refusal) {
      const error = refusal;
      refusal = undefined;
      await provider.interactionFinished(req, res, { error, error_description: 'refused by the test' });
      return;
    }
    if (details.prompt.name === 'login') {
      if (!current) throw new Error('signInAs() was not called');
      accounts.set(current.sub, current);
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: current.sub } },
        {
          mergeWithLastSubmission: false,
        },
      );
      return;
    }
    // Consent: grant everything the client asked for.
    const accountId = details.session?.accountId;
    const clientId = details.params.client_id;
    if (!accountId || typeof clientId !== 'string') throw new Error('consent without a session');
    const grant = new provider.Grant({ accountId, clientId });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  return {
    issuer,
    clients,
    signInAs(account) {
      current = account;
    },
    refuseNext(error) {
      refusal = error;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
