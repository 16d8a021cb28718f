/**
 * HTTP plumbing shared by every domain: the error handler ({detail, code}), the OpenAPI document,
 * request ids, logging setup, health and readiness. Domains register their own routes in app.ts;
 * nothing here knows about markets, games or accounts.
 */

export { type App, requireUser } from './app-instance.js';
export { type AccessRule, registerAuth } from './auth.js';
export { clientErrorHandler } from './client-errors.js';
export * from './cookies.js';
export { allowCrossOrigin } from './cors.js';
export { CsrfTokens } from './csrf.js';
export {
  isDependencyUnavailable,
  type PageFallback,
  registerErrorHandling,
  toErrorReply,
} from './error-handler.js';
export { registerHealthRoutes } from './health.routes.js';
export { FINITE_NOTE, findNonFinite, findNul, NUL_NOTE, registerInputGuards } from './input-guards.js';
export { loggerOptions, REDACT_PATHS } from './logger.js';
export { filterByPrefix, registerOpenApi } from './openapi.js';
export { ErrorRef, ErrorResponse, errorResponses, Id, IdParams, MAX_ID } from './schemas.js';
export { registerSecurityHeaders } from './security-headers.js';
export { isAppPage, registerWebApp, type WebApp } from './web-app.js';
