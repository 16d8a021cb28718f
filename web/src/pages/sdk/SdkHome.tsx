/**
 * SDK home: the team's games with events, ingest keys (API keys with scope sdk:ingest), a
 * copy-paste snippet for sending events, and a live tail of what arrives.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { api, type Schemas, unwrap } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Layout';
import { CopyButton } from '../../components/SecretOnce';
import { Empty, ErrorState, QueryView } from '../../components/states';
import { Time } from '../../components/Time';
import { formatDay, formatInteger } from '../../lib/format';
import { RequireAuth } from '../../lib/session';
import { payloadSummary } from './sdk-data';
import { curlSnippet, exampleEvents, luauSnippet, SVC_LUA_PATH, typescriptSnippet } from './snippets';

type Game = Schemas['SdkGames']['games'][number];
type Key = Schemas['ApiKey'];
type RecentEvent = Schemas['RecentSdkEvents']['events'][number];

const KEYS = ['keys'] as const;
const GAMES = ['sdk', 'games'] as const;
const INGEST_SCOPES = ['sdk:ingest', 'ingest:telemetry'];
const TAIL_MS = 3000;

const gameColumns: Column<Game>[] = [
  {
    key: 'game',
    header: 'Game id',
    cell: (g) => <Link to={`/sdk/${encodeURIComponent(g.game_id)}`}>{g.game_id}</Link>,
    sort: (g) => g.game_id,
  },
  {
    key: 'platform',
    header: 'Platform',
    cell: (g) => <span className="badge">{g.platform}</span>,
    sort: (g) => g.platform,
  },
  {
    key: 'events',
    header: 'Events (24 h)',
    cell: (g) => formatInteger(g.events_24h),
    sort: (g) => g.events_24h,
    numeric: true,
  },
  {
    key: 'players',
    header: 'Players (24 h)',
    cell: (g) => formatInteger(g.players_24h),
    sort: (g) => g.players_24h,
    numeric: true,
  },
  { key: 'first', header: 'First day', cell: (g) => formatDay(g.first_seen), sort: (g) => g.first_seen },
  { key: 'last', header: 'Last day', cell: (g) => formatDay(g.last_seen), sort: (g) => g.last_seen },
];

function Games({ games }: { games: Game[] }) {
  return (
    <section className="card stack" aria-labelledby="sdk-games-title">
      <h2 id="sdk-games-title">Your games</h2>
      <DataTable
        testId="sdk-games"
        caption="Games your team has sent SDK events for, busiest first"
        rows={games}
        columns={gameColumns}
        rowKey={(g) => `${g.platform}:${g.game_id}`}
      />
      <p className="muted small">
        One row per platform a game id sent events from; its dashboards combine them.
      </p>
    </section>
  );
}

function GettingStarted() {
  return (
    <section className="card stack" aria-labelledby="sdk-start" data-testid="sdk-empty">
      <h2 id="sdk-start">No events yet: three steps to your first dashboard</h2>
      <ol className="sdk-steps-intro">
        <li>
          <strong>Create an ingest key</strong> below. It can only send events (scope <code>sdk:ingest</code>
          ), so it is safe on a game server, never in client code.
        </li>
        <li>
          <strong>Send events</strong> from your game server to <code>POST /api/sdk/events</code>: copy the
          curl or Luau example, with your key filled in.
        </li>
        <li>
          <strong>Watch them arrive</strong> in the live tail at the bottom; your game then appears here with
          its dashboards (DAU, retention, revenue, funnels, crashes…).
        </li>
      </ol>
    </section>
  );
}

function IngestKeys({ onCreated }: { onCreated: (secret: string) => void }) {
  const id = useId();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<{ key: string; name: string } | null>(null);
  const keys = useQuery({ queryKey: KEYS, queryFn: () => unwrap(api.GET('/api/keys')) });
  const create = useMutation({
    mutationFn: (keyName: string) =>
      unwrap(api.POST('/api/keys', { body: { name: keyName, scopes: ['sdk:ingest'] } })),
    onSuccess: (k) => {
      setSecret({ key: k.key, name: k.name });
      setName('');
      onCreated(k.key);
      return client.invalidateQueries({ queryKey: KEYS });
    },
  });
  const revoke = useMutation({
    mutationFn: (keyId: number) => unwrap(api.DELETE('/api/keys/{id}', { params: { path: { id: keyId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: KEYS }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(name.trim() || 'Game server');
  };
  const columns: Column<Key>[] = [
    { key: 'name', header: 'Name', cell: (k) => k.name, sort: (k) => k.name.toLowerCase() },
    { key: 'prefix', header: 'Key', cell: (k) => <code>{k.prefix}…</code> },
    { key: 'scopes', header: 'Scopes', cell: (k) => k.scopes.join(', ') },
    { key: 'created', header: 'Created', cell: (k) => <Time at={k.created_at} />, sort: (k) => k.created_at },
    {
      key: 'used',
      header: 'Last used',
      cell: (k) =>
        k.last_used_at ? <Time at={k.last_used_at} relative /> : <span className="muted">never</span>,
      sort: (k) => k.last_used_at,
    },
    {
      key: 'revoke',
      header: 'Revoke',
      cell: (k) => (
        <button
          type="button"
          className="button danger"
          disabled={revoke.isPending}
          onClick={() => {
            if (
              window.confirm(`Revoke the key “${k.name}”? Game servers using it can no longer send events.`)
            ) {
              revoke.mutate(k.id);
            }
          }}
        >
          Revoke
        </button>
      ),
    },
  ];
  return (
    <section className="card stack" aria-labelledby={`${id}-t`}>
      <h2 id={`${id}-t`}>Ingest keys</h2>
      <form className="row" onSubmit={submit} data-testid="ingest-key-form">
        <label>
          Key name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Game server"
            maxLength={100}
          />
        </label>
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create ingest key'}
        </button>
      </form>
      {create.error ? <ErrorState error={create.error} /> : null}
      {secret ? (
        <div className="notice stack" role="status">
          <p>
            <strong>{secret.name}</strong>: copy the key now. It is shown only this once.
          </p>
          <code className="secret" data-testid="ingest-key-secret">
            {secret.key}
          </code>
          <CopyButton text={secret.key} label="Copy key" />
        </div>
      ) : null}
      {revoke.error ? <ErrorState error={revoke.error} /> : null}
      <QueryView query={keys} label="Loading keys">
        {(all) => {
          const ingest = all.filter((k) => k.scopes.some((s) => INGEST_SCOPES.includes(s)));
          return ingest.length === 0 ? (
            <p className="muted">No ingest key yet.</p>
          ) : (
            <DataTable
              testId="ingest-keys"
              caption="Ingest keys"
              rows={ingest}
              columns={columns}
              rowKey={(k) => k.id}
            />
          );
        }}
      </QueryView>
      <p className="muted small">
        Read-only API keys live on your <Link to="/account">account page</Link>.
      </p>
    </section>
  );
}

function Snippet({ apiKey, gameId }: { apiKey: string | null; gameId: string }) {
  const id = useId();
  const [lang, setLang] = useState<'curl' | 'luau' | 'typescript'>('curl');
  const origin = window.location.origin;
  const [tag] = useState(() => Math.random().toString(36).slice(2, 10).padEnd(8, '0'));
  const text = useMemo(
    () =>
      lang === 'curl'
        ? curlSnippet(origin, apiKey, exampleEvents(gameId, new Date(), tag))
        : lang === 'luau'
          ? luauSnippet(origin, apiKey)
          : typescriptSnippet(origin, apiKey, gameId),
    [lang, origin, apiKey, gameId, tag],
  );
  return (
    <section className="card stack" aria-labelledby={`${id}-t`} data-testid="sdk-snippet">
      <div className="page-header">
        <h2 id={`${id}-t`}>Send events</h2>
        <fieldset className="segmented" aria-label="Example language">
          <button type="button" aria-pressed={lang === 'curl'} onClick={() => setLang('curl')}>
            curl
          </button>
          <button type="button" aria-pressed={lang === 'luau'} onClick={() => setLang('luau')}>
            Luau (Roblox)
          </button>
          <button type="button" aria-pressed={lang === 'typescript'} onClick={() => setLang('typescript')}>
            TypeScript
          </button>
        </fieldset>
      </div>
      <p className="small">
        {apiKey
          ? 'Your new key is filled in.'
          : 'Create a key above to have it filled in, or replace YOUR_INGEST_KEY.'}{' '}
        {lang === 'curl' ? (
          <>
            Each event needs a unique <code>event_id</code> (8–40 characters; a repeat is counted as deduped),
            a UTC <code>ts</code>, <code>platform</code>, <code>game_id</code>, a hashed{' '}
            <code>player_id</code> and a <code>type</code> with its payload; 1 to 500 events a request.
          </>
        ) : (
          <>
            The SDK gives each event its <code>event_id</code>, sends them in batches and retries after a 429
            (rate limit) or 503 (monthly quota) with the same ids, which the server deduplicates.
          </>
        )}
      </p>
      <pre
        className="code sdk-snippet"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the snippet scrolls sideways; focus lets the keyboard scroll it
        tabIndex={0}
      >
        {text}
      </pre>
      <CopyButton text={text} label="Copy example" />
      {lang === 'luau' && (
        <p className="small">
          <a href={SVC_LUA_PATH} download="Svc.lua">
            Download Svc.lua
          </a>{' '}
          (the Svc module, from the repository's sdk/roblox) and put it in ServerScriptService as a
          ModuleScript named Svc.
        </p>
      )}
      {lang === 'typescript' && (
        <p className="small">
          The <code>@svc/sdk</code> package is in the repository's sdk/js:{' '}
          <code>cd sdk/js &amp;&amp; npm pack</code> builds <code>svc-sdk-0.1.0.tgz</code>.
        </p>
      )}
      <p className="muted small">
        The answer is <code>{'{accepted, rejected, deduped, errors}'}</code>; a rejected event's error names
        the field at fault. Event types: session_start, session_end, purchase, ad_impression, level, custom,
        performance, crash, error, brand_zone_enter, brand_zone_exit, equip, share, brand_survey_shown,
        brand_survey_response (see <a href="/docs">the API reference</a>).
      </p>
    </section>
  );
}

function LiveTail() {
  const id = useId();
  const [paused, setPaused] = useState(false);
  const recent = useQuery({
    queryKey: ['sdk', 'recent', 50],
    queryFn: () => unwrap(api.GET('/api/sdk/events/recent', { params: { query: { limit: 50 } } })),
    refetchInterval: paused ? false : TAIL_MS,
  });
  const columns: Column<RecentEvent>[] = [
    { key: 'received', header: 'Received', cell: (e) => <Time at={e.received_at} relative /> },
    { key: 'type', header: 'Type', cell: (e) => <span className="badge">{e.type}</span> },
    {
      key: 'game',
      header: 'Game',
      cell: (e) => <Link to={`/sdk/${encodeURIComponent(e.game_id)}`}>{e.game_id}</Link>,
    },
    { key: 'platform', header: 'Platform', cell: (e) => e.platform },
    { key: 'player', header: 'Player', cell: (e) => <code>{e.player_id}</code> },
    { key: 'country', header: 'Country', cell: (e) => e.country ?? '–' },
    {
      key: 'payload',
      header: 'Payload',
      cell: (e) => (
        <span className="small" title={JSON.stringify(e.payload)}>
          {payloadSummary(e.payload)}
        </span>
      ),
    },
    { key: 'ts', header: 'Event time', cell: (e) => <Time at={e.ts} /> },
    { key: 'sdk', header: 'SDK', cell: (e) => e.sdk_version ?? '–' },
  ];
  return (
    <section className="card stack" aria-labelledby={`${id}-t`} data-testid="live-tail">
      <div className="page-header">
        <h2 id={`${id}-t`}>Live tail</h2>
        <div className="page-actions">
          <span className="small muted">
            {paused ? 'Paused' : `Refreshing every ${TAIL_MS / 1000} s`}
            {recent.dataUpdatedAt ? (
              <>
                {' '}
                · updated <Time at={new Date(recent.dataUpdatedAt).toISOString()} />
              </>
            ) : null}
          </span>
          <button type="button" className="button" onClick={() => setPaused((p) => !p)} aria-pressed={paused}>
            {paused ? 'Resume' : 'Pause'}
          </button>
        </div>
      </div>
      <QueryView
        query={recent}
        label="Loading recent events"
        empty={(d) =>
          d.events.length === 0 ? (
            <Empty title="Nothing received yet">
              <p className="muted small">Events show up here a moment after your game sends them.</p>
            </Empty>
          ) : null
        }
      >
        {(d) => (
          <div className="sdk-tail">
            <DataTable
              testId="live-tail-table"
              caption="The team's most recently received SDK events, newest first"
              rows={d.events}
              columns={columns}
              rowKey={(e) => e.event_id}
            />
          </div>
        )}
      </QueryView>
    </section>
  );
}

function SdkHome() {
  const [newKey, setNewKey] = useState<string | null>(null);
  const games = useQuery({
    queryKey: GAMES,
    queryFn: () => unwrap(api.GET('/api/sdk/games')),
    // Until the first events arrive, look again now and then so the page moves on by itself.
    refetchInterval: (q) => (q.state.data?.games.length === 0 ? 5000 : false),
  });
  const firstGame = games.data?.games[0]?.game_id ?? '';
  return (
    <div className="page sdk-page">
      <PageHeader title="SDK analytics" />
      <p className="muted">
        Your game servers send typed events; svc turns them into dashboards within seconds.
      </p>
      <QueryView
        query={games}
        label="Loading your games"
        empty={(d) => (d.games.length === 0 ? <GettingStarted /> : null)}
      >
        {(d) => <Games games={d.games} />}
      </QueryView>
      <IngestKeys onCreated={setNewKey} />
      <Snippet apiKey={newKey} gameId={firstGame} />
      <LiveTail />
    </div>
  );
}

export function Component() {
  return (
    <RequireAuth>
      <SdkHome />
    </RequireAuth>
  );
}
