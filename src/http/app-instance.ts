/**
 * The Fastify instance every route file registers on: typed through the TypeBox type provider, so
 * a handler's params, query, body and reply are the Static types of the schemas its route declares
 * (no casts). src/app.ts builds the app `.withTypeProvider<TypeBoxTypeProvider>()`; this is its type.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import { errors } from '../errors.js';
import type { Principal, UserPrincipal } from '../identity.js';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The signed-in user behind a request; `auth: 'user'` routes only ever see users (the guard). */
export function requireUser(principal: Principal): UserPrincipal {
  if (principal.kind !== 'user') throw errors.notAuthenticated();
  return principal;
}
