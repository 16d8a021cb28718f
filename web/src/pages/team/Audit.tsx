/**
 * /team/audit: the chosen team's audit log, newest first, filtered by action and dates, paged with
 * "Load more" (next_cursor), and downloaded as CSV. The download goes through the API client so it
 * carries X-Team-Id (a plain link could not), then is saved from a Blob.
 */
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading, QueryView } from '../../components/states';
import { Time } from '../../components/Time';
import { RequireAuth } from '../../lib/session';
import { can, type Team, useTeam, useTeamId } from '../../lib/team';
import {
  AUDIT_ACTION_NAMES,
  AUDIT_ACTIONS,
  type AuditEntry,
  type AuditFilters,
  actionLabel,
  attachmentName,
  auditQuery,
  auditTarget,
  badRange,
  describeChange,
  isAuditAction,
  NO_FILTERS,
} from './audit';
import { ROLE_LABEL } from './roles';

const PAGE_SIZE = 50;

function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

function Filters({ filters, onChange }: { filters: AuditFilters; onChange: (f: AuditFilters) => void }) {
  const id = useId();
  return (
    <fieldset className="row audit-filters">
      <legend className="sr-only">Filters</legend>
      <label>
        Action
        <select
          value={filters.action}
          onChange={(e) => {
            const v = e.target.value;
            onChange({ ...filters, action: isAuditAction(v) ? v : '' });
          }}
          data-testid="audit-action"
        >
          <option value="">All actions</option>
          {AUDIT_ACTION_NAMES.map((a) => (
            <option key={a} value={a}>
              {AUDIT_ACTIONS[a]}
            </option>
          ))}
        </select>
      </label>
      <label htmlFor={`${id}-since`}>
        From
        <input
          id={`${id}-since`}
          type="date"
          value={filters.since}
          onChange={(e) => onChange({ ...filters, since: e.target.value })}
        />
      </label>
      <label htmlFor={`${id}-until`}>
        To
        <input
          id={`${id}-until`}
          type="date"
          value={filters.until}
          onChange={(e) => onChange({ ...filters, until: e.target.value })}
        />
      </label>
      {filters !== NO_FILTERS ? (
        <button type="button" className="button ghost" onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </button>
      ) : null}
    </fieldset>
  );
}

function EntriesTable({
  entries,
  busy,
  emailOf,
}: {
  entries: AuditEntry[];
  busy: boolean;
  emailOf: (userId: string) => string | undefined;
}) {
  const columns: Column<AuditEntry>[] = [
    { key: 'at', header: 'Time', cell: (e) => <Time at={e.at} /> },
    { key: 'who', header: 'Who', cell: (e) => e.actor_email ?? <span className="muted">system</span> },
    {
      key: 'action',
      header: 'Action',
      cell: (e) => (
        <span title={e.action} data-action={e.action}>
          {actionLabel(e.action)}
        </span>
      ),
    },
    { key: 'target', header: 'Target', cell: (e) => auditTarget(e, emailOf) },
    {
      key: 'ip',
      header: 'IP',
      cell: (e) =>
        e.ip ? (
          <span className="mono" title={e.user_agent ?? undefined}>
            {e.ip}
          </span>
        ) : (
          <span className="muted">—</span>
        ),
    },
    {
      key: 'change',
      header: 'Change',
      cell: (e) => <span className="wrap-cell">{describeChange(e.before, e.after)}</span>,
    },
  ];
  return (
    <div aria-busy={busy}>
      <DataTable
        rows={entries}
        columns={columns}
        rowKey={(e) => e.id}
        caption="Audit log entries, newest first"
        testId="audit-table"
      />
    </div>
  );
}

function AuditLog({ team }: { team: Team }) {
  const teamId = useTeamId();
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const emails = new Map(team.members.map((m) => [String(m.user_id), m.email]));
  const query = auditQuery(filters);
  const entries = useInfiniteQuery({
    queryKey: ['team', 'audit', teamId ?? 'personal', query],
    queryFn: async ({ pageParam }) => {
      const page = await unwrap(
        api.GET('/api/team/audit', {
          params: { query: { ...query, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      );
      // The reply is typed JSON or CSV; format=json (the default) is the JSON page.
      if (typeof page === 'string')
        throw new Error('The server sent CSV where a page of entries was expected.');
      return page;
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: !badRange(filters),
  });
  const download = useMutation({
    mutationFn: async () => {
      let name = 'audit.csv';
      const blob = await unwrap(
        api
          .GET('/api/team/audit', { params: { query: { ...query, format: 'csv' } }, parseAs: 'blob' })
          .then((r) => {
            name = attachmentName(r.response.headers.get('content-disposition'));
            return r;
          }),
      );
      return { blob, name };
    },
    onSuccess: ({ blob, name }) => saveBlob(blob, name),
  });
  const rows = entries.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <section className="card stack" aria-labelledby="audit-heading">
      <div className="audit-head">
        <h2 id="audit-heading">Entries</h2>
        <button
          type="button"
          className="button"
          onClick={() => download.mutate()}
          disabled={download.isPending || badRange(filters)}
          data-testid="audit-csv"
        >
          {download.isPending ? 'Preparing…' : 'Download CSV'}
        </button>
      </div>
      <Filters filters={filters} onChange={setFilters} />
      {download.error ? <ErrorState error={download.error} /> : null}
      {badRange(filters) ? (
        <p className="field-error">The “To” date is before the “From” date.</p>
      ) : entries.isPending ? (
        <Loading label="Loading the audit log" />
      ) : entries.error ? (
        <ErrorState error={entries.error} retry={() => void entries.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title={filters === NO_FILTERS ? 'Nothing logged yet' : 'No entry matches these filters'} />
      ) : (
        <>
          <EntriesTable entries={rows} busy={entries.isFetching} emailOf={(id) => emails.get(id)} />
          <div className="row">
            <span className="muted small" aria-live="polite">
              {rows.length} {rows.length === 1 ? 'entry' : 'entries'} shown
              {entries.hasNextPage ? '' : ', the oldest included'}
            </span>
            {entries.hasNextPage ? (
              <button
                type="button"
                className="button"
                onClick={() => void entries.fetchNextPage()}
                disabled={entries.isFetchingNextPage}
              >
                {entries.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}

function AuditPage() {
  const team = useTeam();
  return (
    <div className="page audit-page">
      <PageHeader title="Audit log">
        <Link className="button" to="/team">
          Back to the team
        </Link>
      </PageHeader>
      <QueryView query={team} label="Loading the team">
        {(t) =>
          can(t, 'audit.read') ? (
            <>
              <p className="muted">
                {t.personal ? 'Your personal team' : t.name}: who did what and when — member and role changes,
                invitations, settings, API keys, ownership, plan changes and sign-ins. Entries are never
                edited or deleted.
              </p>
              <AuditLog team={t} />
            </>
          ) : (
            <div className="state state-empty" data-testid="audit-forbidden">
              <p className="state-title">
                Your role in {t.name} ({t.your_role ? ROLE_LABEL[t.your_role].toLowerCase() : 'none'}) cannot
                read the audit log
              </p>
              <p className="state-body">Ask the team’s owner or an admin if you need it.</p>
            </div>
          )
        }
      </QueryView>
    </div>
  );
}

export function Component() {
  return (
    <RequireAuth>
      <AuditPage />
    </RequireAuth>
  );
}
