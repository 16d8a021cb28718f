/**
 * AppError: the one way a service says "this request cannot be served". Each kind has the stable
 * status and code of spec/DECISIONS.md §1; the HTTP error handler turns it into `{detail, code}`.
 * Services throw these; they never build HTTP replies themselves.
 */

export interface AppErrorOptions {
  /** Extra response headers (Retry-After, WWW-Authenticate, …). */
  headers?: Record<string, string>;
  /** Extra machine-readable fields for the body (`field`, `required_plan`). */
  fields?: { field?: string; required_plan?: string };
  cause?: unknown;
}

export class AppError extends Error {
  readonly headers: Record<string, string>;
  readonly fields: { field?: string; required_plan?: string };

  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    options: AppErrorOptions = {},
  ) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.headers = options.headers ?? {};
    this.fields = options.fields ?? {};
  }

  get detail(): string {
    return this.message;
  }
}

/** Constructors for every error kind the API documents, so codes are spelled in one place. */
export const errors = {
  invalidJson: (detail = 'The request body is not valid JSON.') => new AppError(400, 'invalid_json', detail),
  notAuthenticated: (detail = 'Authentication is required.') =>
    new AppError(401, 'not_authenticated', detail, { headers: { 'WWW-Authenticate': 'Bearer' } }),
  tokenInvalid: (detail = 'The access token is invalid, expired or revoked.') =>
    new AppError(401, 'token_invalid', detail, {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    }),
  apiKeyMissing: () => new AppError(401, 'api_key_missing', 'The request body must carry api_key.'),
  apiKeyInvalid: () => new AppError(401, 'api_key_invalid', 'The API key is unknown or revoked.'),
  insufficientScope: (detail: string) => new AppError(403, 'insufficient_scope', detail),
  apiKeyReadOnly: (detail = 'API keys are read-only: sign in to use this endpoint.') =>
    new AppError(403, 'api_key_read_only', detail),
  csrfInvalid: () =>
    new AppError(
      403,
      'csrf_invalid',
      'Missing or invalid X-CSRF-Token header (send the value of the svc_csrf cookie).',
    ),
  planUpgradeRequired: (plan: string, feature: string) =>
    new AppError(403, 'plan_upgrade_required', `${feature} needs the ${plan} plan or higher.`, {
      fields: { required_plan: plan },
    }),
  forbidden: (code: string, detail: string, fields?: AppErrorOptions['fields']) =>
    new AppError(403, code, detail, fields ? { fields } : {}),
  notFound: (detail = 'Not found.') => new AppError(404, 'not_found', detail),
  /** X-Team-Id (or a path) names a team the caller is not in, or none at all: never tells which. */
  teamNotFound: (detail = 'You are not a member of a team with this id.') =>
    new AppError(404, 'team_not_found', detail),
  /** A shared team whose owner's plan left Enterprise (plans.ts teamActive). */
  teamCancelled: (
    detail = "This team is cancelled: its owner's plan is no longer Enterprise. Nothing was deleted; it comes back when the owner upgrades.",
  ) => new AppError(403, 'plan_upgrade_required', detail, { fields: { required_plan: 'Enterprise' } }),
  conflict: (code: string, detail: string) => new AppError(409, code, detail),
  payloadTooLarge: (detail = 'The request body is too large.') =>
    new AppError(413, 'payload_too_large', detail),
  unsupportedMediaType: (detail: string) => new AppError(415, 'unsupported_media_type', detail),
  validation: (field: string, detail: string) =>
    new AppError(422, 'validation_failed', detail, { fields: { field } }),
  unprocessable: (code: string, detail: string, field?: string) =>
    new AppError(422, code, detail, field ? { fields: { field } } : {}),
  rateLimited: (retryAfterSeconds: number, detail = 'Too many requests; slow down.') =>
    new AppError(429, 'rate_limited', detail, {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    }),
  unavailable: (detail: string, retryAfterSeconds = 5, cause?: unknown) =>
    new AppError(503, 'temporarily_unavailable', detail, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
      cause,
    }),
} as const;

/** A `svc` command's arguments are wrong: the CLI prints the message and the command's usage and
 * exits 2. Commands throw it before they open anything. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}
