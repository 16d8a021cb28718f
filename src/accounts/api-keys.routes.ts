import { Type } from 'typebox';
import { actorOf } from '../audit/index.js';
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
  const manage = { auth: 'user' as const, team: 'keys.manage' as const };
  const read = { auth: 'user' as const, team: 'content.read' as const };

  app.post(
    '/api/keys',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: 'Create an API key (the secret is shown once)',
        description:
          'Scopes: `read` authenticates the public read API (X-API-Key); `sdk:ingest` and `ingest:telemetry` authenticate only SDK ingest. ' +
          'Keys belong to the team the request acts in (X-Team-Id; your personal team without it): a team key reads and ingests for that team, with its plan. ' +
          'In a shared team only the owner and admins create and revoke keys; the audit log records both.',
        body: CreateKeyBody,
        response: { 200: CreatedKey, ...errorResponses(422) },
      },
    },
    async (request) => {
      const { userId, teamId } = requireUser(request.principal);
      return keys.create({ userId, teamId }, request.body.name, request.body.scopes, actorOf(request));
    },
  );

  app.get(
    '/api/keys',
    {
      config: { access: read },
      schema: {
        tags,
        summary: "The team's live API keys (never their secrets)",
        response: { 200: Type.Array(Type.Ref('ApiKey')) },
      },
    },
    async (request): Promise<ApiKeyT[]> => keys.list(requireUser(request.principal).teamId),
  );

  app.delete(
    '/api/keys/:id',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: 'Revoke an API key',
        params: KeyIdParams,
        response: { 200: StatusLiteral('revoked'), ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      await keys.revoke(requireUser(request.principal).teamId, request.params.id, actorOf(request));
      return { status: 'revoked' as const };
    },
  );
}

export const apiKeySchemas = [ApiKey];
