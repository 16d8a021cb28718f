/**
 * The one place errors become HTTP replies: every failure is `{detail, code}` with the status of
 * spec/DECISIONS.md §1. Unexpected errors are logged with their stack and answered with a masked
 * 500 that carries only the request id, so nothing internal leaks to the caller.
 */
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import { AppError, errors } from '../errors.js';
import { trackRouteMethods } from './route-methods.js';

export interface ErrorBody {
  detail: string;
  code: string;
  field?: string;
  required_plan?: string;
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'not_authenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'rate_limited',
  431: 'headers_too_large',
};

const CONTEXT_NAMES: Record<string, string> = {
  querystring: 'query',
  params: 'path',
  body: 'body',
  headers: 'header',
};

/** `body` + `/events/0/type` → `body.events.0.type`; a missing property names itself. */
export function validationField(context: string | undefined, issue: FastifySchemaValidationError): string {
  const parts = [CONTEXT_NAMES[context ?? ''] ?? context ?? 'request'];
  for (const segment of issue.instancePath.split('/').slice(1)) {
    parts.push(segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  const params = issue.params as Record<string, unknown>;
  if (issue.keyword === 'required' && typeof params.missingProperty === 'string')
    parts.push(params.missingProperty);
  if (issue.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    parts.push(params.additionalProperty);
  }
  return parts.join('.');
}

/** The constants an anyOf of `const` branches allows (a union of literals), from the issues Ajv
 * reports for the same value; empty when the failure is anything else. */
function allowedConstants(issues: FastifySchemaValidationError[]): unknown[] {
  const first = issues[0]!;
  const values: unknown[] = [];
  for (const issue of issues) {
    if (issue.instancePath !== first.instancePath) return [];
    if (issue.keyword === 'anyOf') break;
    if (issue.keyword !== 'const') return [];
    values.push((issue.params as { allowedValue?: unknown }).allowedValue);
  }
  return values;
}

function validationMessage(field: string, issues: FastifySchemaValidationError[]): string {
  const issue = issues[0]!;
  if (issue.keyword === 'required') return `${field} is required`;
  if (issue.keyword === 'additionalProperties') return `${field} is not an accepted field`;
  const params = issue.params as Record<string, unknown>;
  if (issue.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return `${field} must be one of: ${params.allowedValues.join(', ')}`;
  }
  // Safety net for schemas written as a union of literals (anyOf of const): name every value.
  const constants = issue.keyword === 'const' ? allowedConstants(issues) : [];
  if (constants.length > 1) return `${field} must be one of: ${constants.join(', ')}`;
  return `${field} ${issue.message ?? 'is invalid'}`;
}

/** Connection-level failures of a dependency (database restarting, refused) are 503, not bugs. */
export function isDependencyUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (
      ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '53300'].includes(code)
    ) {
      return true;
    }
    if (/^08\w{3}$/.test(code)) return true; // SQLSTATE class 08: connection exception
  }
  const message = (err as { message?: unknown }).message;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection timeout|Cannot use a pool after calling end|encountered a connection error and is not queryable/i.test(
      message,
    )
  );
}

/** Maps any thrown value to a status, body and headers. Exported for unit tests. */
export function toErrorReply(
  err: unknown,
  requestId: string,
): { status: number; body: ErrorBody; headers: Record<string, string>; unexpected: boolean } {
  if (err instanceof AppError) {
    if (err.status >= 500 && err.status !== 503) return masked(requestId);
    return {
      status: err.status,
      body: { detail: err.detail, code: err.code, ...err.fields },
      headers: err.headers,
      unexpected: false,
    };
  }
  const fe = err as Partial<FastifyError> & {
    validation?: FastifySchemaValidationError[];
    validationContext?: string;
  };
  if (Array.isArray(fe.validation) && fe.validation.length > 0) {
    const issue = fe.validation[0]!;
    const field = validationField(fe.validationContext, issue);
    const e = errors.validation(field, validationMessage(field, fe.validation));
    return { status: 422, body: { detail: e.detail, code: e.code, field }, headers: {}, unexpected: false };
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return plain(
        400,
        'invalid_json',
        'The request body is not valid JSON (or uses a forbidden key such as __proto__).',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return plain(400, 'invalid_json', 'The request body is empty but content-type is application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return plain(413, 'payload_too_large', 'The request body is larger than this endpoint accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return plain(415, 'unsupported_media_type', 'This endpoint does not accept that content-type.');
  }
  if (isDependencyUnavailable(err)) {
    const e = errors.unavailable('A service this request depends on is unavailable; try again shortly.');
    return { status: 503, body: { detail: e.detail, code: e.code }, headers: e.headers, unexpected: true };
  }
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    return plain(
      status,
      CODE_BY_STATUS[status] ?? 'bad_request',
      fe.message || 'The request was not accepted.',
    );
  }
  return masked(requestId);
}

function plain(status: number, code: string, detail: string) {
  return { status, body: { detail, code }, headers: {}, unexpected: false };
}

function masked(requestId: string) {
  return {
    status: 500,
    body: {
      detail: `An unexpected error occurred; quote request id ${requestId} when reporting it.`,
      code: 'internal_error',
    },
    headers: {},
    unexpected: true,
  };
}

/** Requests that reach the server once it has begun to close (on a connection kept alive by a
 * request still in flight) get 503 with Retry-After, and the connection is closed after it.
 * Replaces Fastify's own `return503OnClosing` answer, which is not {detail, code}. Fastify marks
 * such a request before any hook runs by setting `Connection: close` on the response; a preClose
 * hook would delay the listener's close (new connections would be reset instead of refused). */
function refuseWhileClosing(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (reply.raw.getHeader('connection') !== 'close') return;
    const e = errors.unavailable('The server is shutting down; try again shortly.');
    request.log.info({ status: 503, code: e.code }, 'request refused');
    return reply.code(503).headers(e.headers).send({ detail: e.detail, code: e.code });
  });
}

/** What answers a GET outside the API that no route matched (the web app's index.html). */
export interface PageFallback {
  pageFor(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined;
}

/** Sets the error and not-found handlers; `servePages` hands the app's pages to the latter. */
export function registerErrorHandling(app: FastifyInstance): { servePages(pages: PageFallback): void } {
  let pages: PageFallback | undefined;
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body, headers, unexpected } = toErrorReply(err, request.id);
    if (unexpected) request.log.error({ err }, 'request failed');
    else if (status >= 400) request.log.info({ status, code: body.code }, 'request refused');
    return reply.code(status).headers(headers).send(body);
  });
  refuseWhileClosing(app);
  const routes = trackRouteMethods(app);
  app.setNotFoundHandler((request, reply) => {
    const fullPath = request.url.split('?')[0] ?? '';
    const path = fullPath.slice(0, 200);
    const allowed = routes.allowed(fullPath);
    if (allowed.length === 0 && pages) {
      const page = pages.pageFor(request, reply);
      if (page) return page;
    }
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      const allow = allowed.join(', ');
      return reply
        .code(405)
        .header('allow', allow)
        .send({
          detail: `${request.method} is not allowed on ${path}; allowed: ${allow}.`,
          code: 'method_not_allowed',
        });
    }
    return reply.code(404).send({ detail: `No route matches ${request.method} ${path}.`, code: 'not_found' });
  });
  return {
    servePages(given) {
      pages = given;
    },
  };
}
