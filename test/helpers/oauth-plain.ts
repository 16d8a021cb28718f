/**
 * A local stand-in for Discord's and X's OAuth 2.0 endpoints, with their documented shapes:
 * an authorize endpoint that redirects straight back with code and state (or `error=`), a token
 * endpoint that checks the client (HTTP Basic), the redirect URI, PKCE (S256) and single use of
 * the code (else 400 `{"error":"invalid_grant"}`), and the user endpoint of each:
 * Discord `GET /api/users/@me` → `{id, username, global_name, email, verified, …}`,
 * X `GET /2/users/me` → `{data: {id, name, username}}`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  email?: string | null;
  verified?: boolean;
}

export interface XUser {
  id: string;
  name: string;
  username: string;
}

export type PlainFlavour = 'discord' | 'x';

export interface TestPlainProvider {
  /** Discord: OAUTH_DISCORD_BASE_URL; X: both OAUTH_X_BASE_URL and OAUTH_X_API_URL. */
  url: string;
  client: { id: string; secret: string };
  signInAs(user: DiscordUser | XUser): void;
  refuseNext(error: string): void;
  /** Token requests received (to check what the service sent). */
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

const PATHS = {
  discord: { authorize: '/oauth2/authorize', token: '/api/oauth2/token', user: '/api/users/@me' },
  x: { authorize: '/i/oauth2/authorize', token: '/2/oauth2/token', user: '/2/users/me' },
} as const;

interface IssuedCode {
  challenge: string;
  redirectUri: string;
  user: DiscordUser | XUser;
  used: boolean;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startPlainProvider(
  flavour: PlainFlavour,
  publicUrl: string,
): Promise<TestPlainProvider> {
  const paths = PATHS[flavour];
  const client = { id: `${flavour}-test-client`, secret: `${flavour} test secret+/=` };
  const redirectUri = `${publicUrl}/api/auth/oauth/${flavour}/callback`;
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, DiscordUser | XUser>();
  const tokenRequests: URLSearchParams[] = [];
  let current: DiscordUser | XUser | undefined;
  let refusal: string | undefined;

  function authorize(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    if (
      q.get('client_id') !== client.id ||
      q.get('redirect_uri') !== redirectUri ||
      q.get('response_type') !== 'code' ||
      q.get('code_challenge_method') !== 'S256' ||
      !q.get('code_challenge') ||
      !q.get('state')
    ) {
      sendJson(res, 400, { error: 'invalid_request' });
      return;
    }
    const back = new URL(redirectUri);
    back.searchParams.set('state', q.get('state')!);
    if (refusal) {
      back.searchParams.set('error', refusal);
      refusal = undefined;
    } else {
      if (!current) throw new Error('signInAs() was not called');
      const code = randomBytes(16).toString('hex');
      codes.set(code, { challenge: q.get('code_challenge')!, redirectUri, user: current, used: false });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.href });
    res.end();
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const expected = `Basic ${Buffer.from(
      `${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret).replace(/%20/g, '+')}`,
    ).toString('base64')}`;
    const form = new URLSearchParams(await readBody(req));
    tokenRequests.push(form);
    if (req.headers.authorization !== expected) {
      sendJson(res, 401, { error: 'invalid_client' });
      return;
    }
    const issued = codes.get(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (
      form.get('grant_type') !== 'authorization_code' ||
      !issued ||
      issued.used ||
      issued.redirectUri !== form.get('redirect_uri') ||
      issued.challenge !== challenge
    ) {
      if (issued) issued.used = true;
      sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
      return;
    }
    issued.used = true;
    const accessToken = randomBytes(16).toString('hex');
    tokens.set(accessToken, issued.user);
    sendJson(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 604800,
      refresh_token: randomBytes(16).toString('hex'),
      scope: flavour === 'discord' ? 'identify email' : 'users.read tweet.read',
    });
  }

  function user(req: IncomingMessage, res: ServerResponse): void {
    const found = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!found) {
      sendJson(res, 401, { message: '401: Unauthorized', code: 0 });
      return;
    }
    if (flavour === 'discord') {
      sendJson(res, 200, { discriminator: '0', avatar: null, locale: 'en-US', mfa_enabled: false, ...found });
    } else {
      sendJson(res, 200, { data: found });
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === paths.authorize) authorize(url, res);
    else if (req.method === 'POST' && url.pathname === paths.token) void token(req, res);
    else if (req.method === 'GET' && url.pathname === paths.user) user(req, res);
    else sendJson(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    client,
    signInAs(u) {
      current = u;
    },
    refuseNext(error) {
      refusal = error;
    },
    tokenRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
