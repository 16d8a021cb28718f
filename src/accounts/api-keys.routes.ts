import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errorResponses } from '../http/schemas.js';
import type { UserPrincipal } from '../identity.js';
import { ApiKey, CreatedKey, CreateKeyBody, KeyIdParams, StatusLiteral } from './accounts.schemas.js';
import type { ApiKeyScope, ApiKeysService } from './api-keys.service.js';

export function registerApiKeyRoutes(app: FastifyInstance, keys: ApiKeysService): void {
  const tags = ['api keys'];
  const access = { auth: 'user' as const };

  app.post(
    '/api/keys',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Create an API key (the secret is shown once)',
        description:
          'Scopes: `read` authenticates the public read API (X-API-Key); `sdk:ingest` and `ingest:telemetry` authenticate only SDK ingest. Keys belong to your team.',
        body: CreateKeyBody,
        response: { 200: CreatedKey, ...errorResponses(422) },
      },
    },
    async (request) => {
      const p = request.principal as UserPrincipal;
      const body = request.body as { name: string; scopes: ApiKeyScope[] };
      return keys.create({ userId: p.userId, teamId: p.teamId }, body.name, body.scopes);
    },
  );

  app.get(
    '/api/keys',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Your live API keys (never their secrets)',
        response: { 200: Type.Array(Type.Ref('ApiKey')) },
      },
    },
    async (request) => keys.list((request.principal as UserPrincipal).userId),
  );

  app.delete(
    '/api/keys/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Revoke an API key',
        params: KeyIdParams,
        response: { 200: StatusLiteral('revoked'), ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      await keys.revoke((request.principal as UserPrincipal).userId, (request.params as { id: number }).id);
      return { status: 'revoked' as const };
    },
  );
}

export const apiKeySchemas = [ApiKey];
