/**
 * buildApp(deps): the Fastify instance with every domain's routes. It never listens and never
 * reads the environment; main.ts (or a test) decides where it runs.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db, Migration } from './db/index.js';
import {
  ErrorResponse,
  loggerOptions,
  registerErrorHandling,
  registerHealthRoutes,
  registerOpenApi,
} from './http/index.js';
import { VERSION } from './version.js';

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
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
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ajv: {
      customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addSchema(ErrorResponse);
  registerErrorHandling(app);
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
  await registerOpenApi(app, { version: VERSION, publicUrl: deps.config.publicUrl });
  registerHealthRoutes(app, { db: deps.db, ...(deps.migrations ? { migrations: deps.migrations } : {}) });
  return app;
}
