/**
 * buildApp(deps): the Fastify instance with every domain's routes. It never listens and never
 * reads the environment; main.ts (or a test) decides where it runs.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { DestinationStream } from 'pino';
import { createAccounts, registerAccounts } from './accounts/index.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db, Migration } from './db/index.js';
import { registerDevLens } from './devlens/index.js';
import { registerGames } from './games/index.js';
import {
  CsrfTokens,
  clientErrorHandler,
  ErrorResponse,
  loggerOptions,
  registerAuth,
  registerErrorHandling,
  registerHealthRoutes,
  registerInputGuards,
  registerOpenApi,
  toErrorReply,
} from './http/index.js';
import { registerIngest } from './ingest/index.js';
import type { Kv } from './kv/index.js';
import { registerMarket } from './market/index.js';
import type { PlatformSource } from './platform/index.js';
import { registerTracking, SecretBox } from './tracking/index.js';
import { VERSION } from './version.js';

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  kv: Kv;
  /** Signs access tokens and CSRF tokens (JWT_SECRET, or the one generated into DATA_DIR). */
  jwtSecret: string;
  /** Encrypts webhook secrets at rest (main.ts: SECRETS_KEY or DATA_DIR's key). Absent (tests):
   * SECRETS_KEY when set, else a key made up for this app alone. */
  webhookSecrets?: SecretBox;
  /** Migrations /readyz expects to be applied; the packaged ones by default. */
  migrations?: Migration[];
  /** Log destination (stdout when omitted); tests capture it. */
  logStream?: DestinationStream;
  /** The market data source (tracking fetches games the catalogue lacks). */
  platform?: PlatformSource;
}

/** Default request body limit; endpoints that take more (Dev Lens uploads) raise their own. */
export const BODY_LIMIT = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions({
      level: deps.config.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    }),
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // error-handler.ts answers requests that arrive while closing (503 {detail, code}, Retry-After).
    return503OnClosing: false,
    trustProxy: deps.config.trustProxy,
    forceCloseConnections: 'idle',
    clientErrorHandler,
    // The router's own refusals (a path that is not valid percent-encoding: 400; a path parameter
    // over maxParamLength: 414) skip every route and the error handler: answer them as {detail, code}.
    frameworkErrors: (err, request, reply: FastifyReply) => {
      const { status, body, headers } = toErrorReply(err, request.id);
      return reply
        .code(status)
        .headers({ ...headers, 'x-request-id': request.id })
        .send(body);
    },
    ajv: {
      customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addSchema(ErrorResponse);
  // Every body-taking route reads JSON (Dev Lens reads multipart in its own scope): without
  // Fastify's text/plain parser, any other content-type is 415 unsupported_media_type.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app);
  registerInputGuards(app);
  const https = deps.config.publicUrl.startsWith('https:');
  await app.register(helmet, {
    // Swagger UI at /docs needs inline styles and data: images; everything is served from 'self'.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    // HSTS only means something when users reach the service over HTTPS.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  await app.register(cookie);
  const accounts = createAccounts({ db: deps.db, kv: deps.kv, clock: deps.clock, jwtSecret: deps.jwtSecret });
  const csrf = new CsrfTokens(deps.jwtSecret);
  // The guard's onRoute hook must come before the OpenAPI plugin and every /api route.
  registerAuth(app, {
    authenticator: accounts.authenticator,
    csrf,
    kv: deps.kv,
    clock: deps.clock,
    entitlements: deps.config.entitlements,
  });
  await registerOpenApi(app, { version: VERSION, publicUrl: deps.config.publicUrl });
  registerHealthRoutes(app, { db: deps.db, ...(deps.migrations ? { migrations: deps.migrations } : {}) });
  registerAccounts(app, accounts, { csrf, secureCookies: https });
  const domain = { db: deps.db, clock: deps.clock, entitlements: deps.config.entitlements };
  registerMarket(app, domain);
  registerGames(app, domain);
  registerTracking(app, {
    ...domain,
    ...(deps.platform ? { platform: deps.platform } : {}),
    webhookAllowPrivate: deps.config.webhookAllowPrivate,
    secrets:
      deps.webhookSecrets ??
      new SecretBox({
        current: deps.config.secretsKey ?? randomBytes(32),
        previous: deps.config.secretsKeyPrevious,
      }),
  });
  registerDevLens(app, domain);
  registerIngest(app, {
    ...domain,
    kv: deps.kv,
    authenticator: accounts.authenticator,
    natsUrl: deps.config.natsUrl,
    natsStream: deps.config.natsIngestStream,
  });
  return app;
}
