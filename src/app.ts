/**
 * buildApp(services): the Fastify instance with every domain's routes, over the services
 * createServices (services.ts) built. It registers routes only: it builds no service, starts no
 * background work, never listens and never reads the environment; main.ts (or a test) decides
 * where it runs.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { DestinationStream } from 'pino';
import { registerAccounts, registerOAuth } from './accounts/index.js';
import { registerAnalytics } from './analytics/index.js';
import { registerAudit } from './audit/index.js';
import type { Migration } from './db/index.js';
import { registerDevLens } from './devlens/index.js';
import { registerGames } from './games/index.js';
import {
  clientErrorHandler,
  ErrorResponse,
  loggerOptions,
  registerAuth,
  registerErrorHandling,
  registerHealthRoutes,
  registerInputGuards,
  registerOpenApi,
  registerSecurityHeaders,
  registerWebApp,
  toErrorReply,
} from './http/index.js';
import { buildResponseSerializer } from './http/serializers.js';
import { registerIngest } from './ingest/index.js';
import { registerIntelligence } from './intelligence/index.js';
import { registerKeywords } from './keywords/index.js';
import { registerMarketRoutes } from './market/index.js';
import type { Services } from './services.js';
import { registerTeams } from './teams/index.js';
import { registerTracking } from './tracking/index.js';
import { registerUgc } from './ugc/index.js';
import { registerUpdates } from './updates/index.js';
import { VERSION } from './version.js';

export interface AppOptions {
  /** Migrations /readyz expects to be applied; the packaged ones by default. */
  migrations?: Migration[];
  /** Log destination (stdout when omitted); tests capture it. */
  logStream?: DestinationStream;
}

/** Default request body limit; endpoints that take more (Dev Lens uploads) raise their own. */
export const BODY_LIMIT = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    logger: loggerOptions({
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
    }),
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // error-handler.ts answers requests that arrive while closing (503 {detail, code}, Retry-After).
    return503OnClosing: false,
    trustProxy: config.trustProxy,
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
    // Each response serializer gets only the shared schemas it refers to (http/serializers.ts).
    schemaController: { compilersFactory: { buildSerializer: buildResponseSerializer } },
    ajv: {
      // allowUnionTypes: condition values are one schema with a type list (a union would be coerced).
      customOptions: {
        coerceTypes: 'array',
        useDefaults: true,
        removeAdditional: true,
        allErrors: false,
        allowUnionTypes: true,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addSchema(ErrorResponse);
  // Every body-taking route reads JSON (Dev Lens reads multipart in its own scope): without
  // Fastify's text/plain parser, any other content-type is 415 unsupported_media_type.
  app.removeContentTypeParser('text/plain');
  const notFound = registerErrorHandling(app);
  registerInputGuards(app);
  const https = config.publicUrl.startsWith('https:');
  registerSecurityHeaders(app, { https });
  await app.register(cookie);
  // The guard's onRoute hook must come before the OpenAPI plugin and every /api route.
  registerAuth(app, {
    authenticator: services.authenticator,
    csrf: services.csrf,
    kv: services.kv,
    clock: services.clock,
    entitlements: config.entitlements,
  });
  await registerOpenApi(app, { version: VERSION, publicUrl: config.publicUrl });
  registerHealthRoutes(app, {
    db: services.db,
    ...(options.migrations ? { migrations: options.migrations } : {}),
  });
  registerAccounts(app, services.accounts, {
    csrf: services.csrf,
    secureCookies: https,
    entitlements: config.entitlements,
  });
  registerOAuth(app, services.oauth, {
    accounts: services.accounts.accounts,
    csrf: services.csrf,
    secureCookies: https,
  });
  registerTeams(app, services.teams);
  registerAudit(app, services.audit);
  registerMarketRoutes(app, services.market.views);
  registerGames(app, services.games);
  registerTracking(app, services.tracking);
  registerUpdates(app, services.updates);
  registerUgc(app, services.ugc.service);
  registerKeywords(app, services.keywords);
  registerIntelligence(app, services.intelligence);
  registerDevLens(app, services.devLens);
  registerIngest(app, services.ingest, config.entitlements);
  registerAnalytics(app, services.analytics);
  const web = await registerWebApp(app, config.webDir);
  if (web) notFound.servePages(web);
  return app;
}
