import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { errors } from '../errors.js';
import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import type { Principal } from '../identity.js';
import { KNOWN_LAYOUTS } from './analysis.js';
import { type DevLensLimits, RETRY_AFTER_SECONDS } from './devlens.pool.js';
import {
  AnalyzeQuery,
  type DevLensResultT,
  MAX_FILE_BYTES,
  ReportList,
  ReportsQuery,
} from './devlens.schemas.js';
import type { Caller, DevLensService, FormPart } from './devlens.service.js';

function analyzeDescription(limits: DevLensLimits): string {
  return [
    'Analyses a Roblox analytics CSV export in memory: `multipart/form-data` with the CSV in field `file` ' +
      '(required, exactly one) and an optional `genre` field (a benchmark genre such as simulation or rpg; default ' +
      'all genres), in either order. An unknown genre → 422 validation_failed, field `body.genre`. Other text ' +
      'fields are ignored.',
    `The file may be up to ${MAX_FILE_BYTES / (1024 * 1024)} MiB (${MAX_FILE_BYTES} bytes), UTF-8 with or without BOM, ` +
      'comma or semicolon separated; a larger one is refused while it streams (413 payload_too_large). Not ' +
      'multipart/form-data → 415 unsupported_media_type; a malformed or truncated multipart body (a part or the ' +
      'closing boundary missing) → 400 bad_request. No file, a file in another field (e.g. `upload`), two files ' +
      '→ 422 validation_failed, field `body.file`. Empty → 422 empty_file; binary or not UTF-8 → 422 invalid_csv or ' +
      `unsupported_file; a layout Dev Lens does not know → 422 unsupported_file. Known layouts:\n${KNOWN_LAYOUTS.map((l) => `- ${l}`).join('\n')}`,
    'Capacity: the file is analysed on a worker thread, never on the thread that answers requests. At most ' +
      `${limits.perUser} analyses per user and ${limits.total} in total run or wait at once (${limits.threads} ` +
      'worker threads on this server); past either cap the request is refused before its body is read with 503 ' +
      `temporarily_unavailable and \`Retry-After: ${RETRY_AFTER_SECONDS}\` (seconds).`,
    'The file is never stored nor logged. With `?save=true` the result (not the file) is stored and its id returned ' +
      'as `report_id`; GET /api/dev-lens/reports lists saved reports.',
    'Formula-injection guard: no string in the answer starts with =, +, -, @ (or a tab or carriage return) — such ' +
      'strings, e.g. a funnel step name echoed from the file, get a leading apostrophe — except the signed ' +
      'benchmark labels ("+12.5%", "-3.0%"), which are ours.',
  ].join('\n\n');
}

const access = {
  auth: 'user' as const,
  plan: 'Studio' as const,
  feature: 'Dev Lens',
  team: 'content' as const,
};
const tags = ['dev lens'];

function caller(p: Principal): Caller {
  if (p.kind !== 'user') throw errors.notAuthenticated();
  return { userId: p.userId, teamId: p.teamId };
}

export function registerDevLensRoutes(app: App, devLens: DevLensService, limits: DevLensLimits): void {
  // Multipart only here: other routes keep refusing it with 415, and this one accepts nothing else.
  // The stream parser does not read the body, so the app's 1 MiB bodyLimit does not apply: busboy's
  // limits cap each part instead, and the file's cap is checked while it streams.
  // Loaded with the app's other plugins at ready(); the auth guard's onRoute hook still applies inside.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    await scope.register(multipart, {
      limits: {
        fileSize: MAX_FILE_BYTES,
        files: 2,
        fields: 10,
        parts: 12,
        fieldSize: 1024,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    });
    registerAnalyzeRoute(scope, devLens, limits);
  });
  registerReportRoutes(app, devLens);
}

function registerAnalyzeRoute(app: App, devLens: DevLensService, limits: DevLensLimits): void {
  app.post(
    '/api/dev-lens/analyze',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Analyse a CSV export (Dev Lens)',
        description: analyzeDescription(limits),
        consumes: ['multipart/form-data'],
        querystring: AnalyzeQuery,
        response: { 200: Type.Ref('DevLensResult'), ...errorResponses(400, 401, 403, 413, 415, 422, 503) },
      },
    },
    async (request, reply): Promise<DevLensResultT> => {
      if (!request.isMultipart()) {
        throw errors.unsupportedMediaType(
          'Send the CSV as multipart/form-data with the file in field "file".',
        );
      }
      const { save } = request.query;
      const who = caller(request.principal);
      // Before the body is read: a request over a cap costs the server nothing but this answer.
      const slot = devLens.admit(who);
      request.log.info({ devLensInFlight: slot.inFlight }, 'Dev Lens analysis admitted');
      // A client that goes away stops its analysis instead of leaving it to run.
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) gone.abort();
      };
      reply.raw.once('close', onClose);
      try {
        return await devLens.analyze(who, request.parts() as AsyncIterable<FormPart>, save, gone.signal);
      } finally {
        reply.raw.off('close', onClose);
        slot.release();
      }
    },
  );
}

function registerReportRoutes(app: App, devLens: DevLensService): void {
  app.get(
    '/api/dev-lens/reports',
    {
      config: { access },
      schema: {
        tags,
        summary: 'The caller’s saved Dev Lens reports',
        description:
          'Reports saved with POST /api/dev-lens/analyze?save=true, newest first; only the caller’s own (never ' +
          'another user’s). Each holds the result as it was answered; the file itself was never stored.',
        querystring: ReportsQuery,
        response: { 200: ReportList, ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => devLens.reports(caller(request.principal), request.query.limit),
  );
}
