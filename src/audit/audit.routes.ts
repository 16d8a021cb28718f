import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { type App, requireUser } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { TEAM_PLAN } from '../plans.js';
import { AdminAuditQuery, AuditEntry, AuditPage, TeamAuditQuery } from './audit.schemas.js';
import type { AuditQuery, AuditService } from './audit.service.js';
import { CSV_COLUMNS, CSV_MAX_ROWS } from './audit.service.js';

const csvBody = Type.Unsafe<Readable>(
  Type.String({
    description: `A header row (${CSV_COLUMNS.join(', ')}), then one entry a record, newest first.`,
  }),
);

function response(fileHint: string) {
  return {
    200: {
      description: `A page of entries (format=json), or every matching entry as a CSV download (format=csv, at most ${CSV_MAX_ROWS.toLocaleString('en-US')} rows).`,
      headers: {
        'content-disposition': Type.String({ description: `format=csv: attachment; filename="${fileHint}"` }),
      },
      content: { 'application/json': { schema: AuditPage }, 'text/csv': { schema: csvBody } },
    },
    ...errorResponses(422),
  };
}

async function answer(
  audit: AuditService,
  reply: FastifyReply,
  query: AuditQuery,
  format: 'json' | 'csv',
  fileName: string,
) {
  reply.header('cache-control', 'no-store');
  if (format === 'json') return reply.type('application/json').send(await audit.page(query));
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(Readable.from(audit.csv(query), { objectMode: false }));
}

const FILTERS_DOC =
  'Filters combine (all must hold): action, actor_id, target_type, since/until (ISO 8601). JSON pages come ' +
  'newest first with next_cursor; pass it as cursor for the next page. format=csv downloads every matching ' +
  'entry (from cursor on) as CSV; cells that start like a spreadsheet formula get a leading apostrophe.';

export function registerAuditRoutes(app: App, audit: AuditService): void {
  app.get(
    '/api/team/audit',
    {
      config: { access: { auth: 'user', plan: TEAM_PLAN, feature: 'Teams', team: 'audit.read' } },
      schema: {
        tags: ['team'],
        summary: "The team's audit log (owner, admin and viewer; not editor)",
        description: `Append-only: member changes, role changes, invitations, settings, API keys, ownership transfers, the owner's plan changes and members' sign-ins, with who, when, IP and user agent, and before/after where it applies. ${FILTERS_DOC}`,
        querystring: TeamAuditQuery,
        response: response('audit_team-<id>.csv'),
      },
    },
    async (request, reply) => {
      const { format, ...q } = request.query;
      const { teamId } = requireUser(request.principal);
      return answer(
        audit,
        reply,
        { ...q, actorId: q.actor_id, targetType: q.target_type, teamId },
        format,
        `audit_team-${teamId}.csv`,
      );
    },
  );

  app.get(
    '/api/admin/audit',
    {
      config: { access: { auth: 'user', admin: true } },
      schema: {
        tags: ['admin'],
        summary: 'The audit log of every team and user (administrators)',
        description: `The same entries as GET /api/team/audit, for all teams; team_id narrows to one. ${FILTERS_DOC}`,
        querystring: AdminAuditQuery,
        response: response('audit_all.csv'),
      },
    },
    async (request, reply) => {
      const { format, ...q } = request.query;
      return answer(
        audit,
        reply,
        { ...q, actorId: q.actor_id, targetType: q.target_type, teamId: q.team_id },
        format,
        q.team_id ? `audit_team-${q.team_id}.csv` : 'audit_all.csv',
      );
    },
  );
}

export const auditSchemas = [AuditEntry];
