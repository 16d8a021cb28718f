import { Type } from 'typebox';
import { type App, requireUser } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import {
  ApiKey,
  type ApiKeyT,
  CreatedKey,
  CreateKeyBody,
  KeyIdParams,
  StatusLiteral,
} from './accounts.schemas.js';
import type { ApiKeysService } from './api-keys.service.js';

export function registerApiKeyRoutes(app: App, keys: ApiKeysService): void {
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
      const { userId, teamId } = requireUser(request.principal);
      return keys.create({ userId, teamId }, request.body.name, request.body.scopes);
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
    async (request): Promise<ApiKeyT[]> => keys.list(requireUser(request.principal).userId),
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
      await keys.revoke(requireUser(request.principal).userId, request.params.id);
      return { status: 'revoked' as const };
    },
  );
}

export const apiKeySchemas = [ApiKey];
