/**
 * Audit: the append-only log of who did what in a team (and, for service administrators, across
 * all of them). Owns the audit_log table; other domains record into it through AuditService
 * inside their own transactions. Routes: GET /api/team/audit and GET /api/admin/audit.
 */
import type { FastifyInstance } from 'fastify';
import { auditSchemas, registerAuditRoutes } from './audit.routes.js';
import type { AuditActor, AuditService } from './audit.service.js';

export { AUDIT_ACTIONS, type AuditAction } from './audit.schemas.js';
export { type AuditActor, type AuditRecord, AuditService } from './audit.service.js';

export function registerAudit(app: FastifyInstance, audit: AuditService): void {
  for (const schema of auditSchemas) app.addSchema(schema);
  registerAuditRoutes(app, audit);
}

/** The acting user, IP and user agent of a request, for AuditService.record. */
export function actorOf(request: {
  principal: { kind: string; userId?: number };
  ip: string;
  headers: { 'user-agent'?: string | undefined };
}): AuditActor {
  const p = request.principal;
  return {
    userId: p && p.kind !== 'anonymous' && typeof p.userId === 'number' ? p.userId : null,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
  };
}
