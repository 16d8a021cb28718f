/**
 * API keys: the live keys (never their secrets), a form to create one with scopes, the new secret
 * shown once with a copy button, and revoke (confirmed).
 */

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, type paths, type Schemas, unwrap } from '../../api/client';
import { SecretOnce } from '../../components/SecretOnce';
import { Empty, ErrorState, QueryView } from '../../components/states';
import { Time } from '../../components/Time';

type CreateBody = paths['/api/keys']['post']['requestBody']['content']['application/json'];
type Scope = CreateBody['scopes'][number];
type ApiKey = Schemas['ApiKey'];
type CreatedKey = paths['/api/keys']['post']['responses'][200]['content']['application/json'];

/** Every scope the API accepts (a Record, so a scope added to the schema fails the type check here). */
const SCOPES: Record<Scope, { title: string; help: string }> = {
  read: {
    title: 'read',
    help: 'Read the API (market, games, your tracking and dashboards) from scripts with the X-API-Key header, at your plan’s rate limit.',
  },
  'sdk:ingest': {
    title: 'sdk:ingest',
    help: 'Send analytics events from your game servers with the SDK, and fetch what the SDK needs (experiment assignments).',
  },
  'ingest:telemetry': {
    title: 'ingest:telemetry',
    help: 'Send events only (POST /api/sdk/events): the narrowest key, for telemetry pipelines.',
  },
};
const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

export const KEYS_KEY = ['api-keys'] as const;

export function ApiKeys() {
  const keys = useQuery({ queryKey: KEYS_KEY, queryFn: () => unwrap(api.GET('/api/keys')) });
  const [created, setCreated] = useState<CreatedKey | null>(null);
  return (
    <section className="card stack" aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <p className="muted">
        Keys let scripts and game servers call svc without your password. Each key belongs to your team;
        revoke one as soon as you no longer need it.
      </p>
      <CreateKeyForm onCreated={setCreated} />
      {created ? <NewSecret created={created} onDone={() => setCreated(null)} /> : null}
      <h3>Your keys</h3>
      <QueryView
        query={keys}
        label="Loading your keys"
        empty={(list) =>
          list.length === 0 ? (
            <Empty title="No API keys yet">
              Create one above to use the API from a script or game server.
            </Empty>
          ) : null
        }
      >
        {(list) => <KeysTable keys={list} />}
      </QueryView>
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedKey) => void }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['read']);
  const id = useId();
  const create = useMutation({
    mutationFn: (body: CreateBody) => unwrap(api.POST('/api/keys', { body })),
    onSuccess: (key) => {
      onCreated(key);
      setName('');
      setScopes(['read']);
      void client.invalidateQueries({ queryKey: KEYS_KEY });
    },
  });
  const toggle = (scope: Scope, on: boolean) =>
    setScopes((s) =>
      on ? SCOPE_NAMES.filter((n) => n === scope || s.includes(n)) : s.filter((n) => n !== scope),
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ name: name.trim(), scopes });
  };
  return (
    <form
      className="stack api-key-form"
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      data-testid="api-key-form"
    >
      <h3 id={`${id}-title`}>Create a key</h3>
      <label>
        Name
        <input
          name="name"
          required
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. Studio dashboard script"
        />
      </label>
      <fieldset className="scopes">
        <legend>Scopes (at least one)</legend>
        {SCOPE_NAMES.map((scope) => (
          <label key={scope} className="inline scope">
            <input
              type="checkbox"
              name="scopes"
              value={scope}
              checked={scopes.includes(scope)}
              onChange={(e) => toggle(scope, e.target.checked)}
              aria-describedby={`${id}-${scope}`}
            />
            <span>
              <code>{SCOPES[scope].title}</code>
              <span id={`${id}-${scope}`} className="muted small scope-help">
                {SCOPES[scope].help}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {scopes.length === 0 ? <p className="field-error">Pick at least one scope.</p> : null}
      {create.error ? <ErrorState error={create.error} /> : null}
      <div className="row">
        <button
          type="submit"
          className="button primary"
          disabled={create.isPending || scopes.length === 0 || !name.trim()}
        >
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </div>
    </form>
  );
}

function NewSecret({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  return (
    <SecretOnce
      title={`Your new key “${created.name}”`}
      secret={created.key}
      testId="api-key-secret"
      onDone={onDone}
      after={
        <p className="muted small">
          Scopes: {created.scopes.join(', ')}. Send it as the <code>X-API-Key</code> header (read) or as{' '}
          <code>api_key</code> in SDK event batches.
        </p>
      }
    >
      svc keeps only a hash of it; if you lose it, revoke it and create another.
    </SecretOnce>
  );
}

function KeysTable({ keys }: { keys: ApiKey[] }) {
  const client = useQueryClient();
  const revoke = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/keys/{id}', { params: { path: { id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: KEYS_KEY }),
  });
  const confirmRevoke = (key: ApiKey) => {
    if (window.confirm(`Revoke “${key.name}” (${key.prefix}…)? Anything using it stops working at once.`)) {
      revoke.mutate(key.id);
    }
  };
  return (
    <div className="stack">
      {revoke.error ? <ErrorState error={revoke.error} /> : null}
      <div className="table-scroll">
        <table className="data-table" data-testid="api-keys-table">
          <caption className="sr-only">Your live API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key starts with</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id} data-key-id={k.id}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>
                  {k.scopes.map((s) => (
                    <span key={s} className="badge scope-badge">
                      {s}
                    </span>
                  ))}
                </td>
                <td>
                  <Time at={k.created_at} />
                </td>
                <td>
                  {k.last_used_at ? (
                    <Time at={k.last_used_at} relative />
                  ) : (
                    <span className="muted">Never</span>
                  )}
                </td>
                <td>
                  <button
                    type="button"
                    className="button danger"
                    onClick={() => confirmRevoke(k)}
                    disabled={revoke.isPending && revoke.variables === k.id}
                    aria-label={`Revoke ${k.name}`}
                  >
                    {revoke.isPending && revoke.variables === k.id ? 'Revoking…' : 'Revoke'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
