/**
 * Webhooks (Studio and up): register a URL with a signing secret (generated here, shown once),
 * send a test delivery, delete, and each webhook's delivery log, polled while something is pending.
 */

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, type Schemas, unwrap } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { SecretOnce } from '../../components/SecretOnce';
import { Empty, ErrorState, QueryView, UpgradeCard } from '../../components/states';
import { Time } from '../../components/Time';
import { deliveriesKey, WEBHOOKS_KEY } from './queries';
import { DELIVERY_STATUS, type Delivery, deliverySubject, generateSecret, hasPending } from './tracking-data';

type Webhook = Schemas['Webhook'];

export function Webhooks({ allowed, upgradePlan }: { allowed: boolean; upgradePlan: string }) {
  if (!allowed) {
    return (
      <section className="card stack" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhooks</h2>
        <UpgradeCard plan={upgradePlan} feature="Webhook delivery">
          Get every alert firing POSTed to your own endpoint as signed JSON, with retries and a delivery log.
        </UpgradeCard>
      </section>
    );
  }
  return <WebhookList />;
}

function WebhookList() {
  const hooks = useQuery({ queryKey: WEBHOOKS_KEY, queryFn: () => unwrap(api.GET('/api/webhooks')) });
  return (
    <div className="stack">
      <section className="card stack" aria-labelledby="new-webhook-title">
        <h2 id="new-webhook-title">New webhook</h2>
        <WebhookForm />
      </section>
      <section className="stack" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Your webhooks</h2>
        <QueryView
          query={hooks}
          label="Loading your webhooks"
          empty={(list) =>
            list.length === 0 ? (
              <Empty title="No webhooks yet">
                <p>Add one above: every alert firing is then POSTed to it as signed JSON.</p>
              </Empty>
            ) : null
          }
        >
          {(list) => list.map((h) => <WebhookCard key={h.id} hook={h} />)}
        </QueryView>
      </section>
    </div>
  );
}

function WebhookForm() {
  const client = useQueryClient();
  const id = useId();
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState(() => generateSecret());
  const [created, setCreated] = useState<{ hook: Webhook; secret: string } | null>(null);
  const create = useMutation({
    mutationFn: (body: { url: string; secret: string }) => unwrap(api.POST('/api/webhooks', { body })),
    onSuccess: (hook, body) => {
      setCreated({ hook, secret: body.secret });
      setUrl('');
      setSecret(generateSecret());
    },
    onSettled: () => client.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ url: url.trim(), secret });
  };
  return (
    <>
      <form className="stack" onSubmit={submit} data-testid="webhook-form">
        <div className="grid">
          <label htmlFor={`${id}-url`}>
            Endpoint URL
            <input
              id={`${id}-url`}
              type="url"
              required
              placeholder="https://example.com/hooks/svc"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
          </label>
          <label htmlFor={`${id}-secret`}>
            Signing secret
            <input
              id={`${id}-secret`}
              required
              minLength={16}
              maxLength={256}
              spellCheck={false}
              autoComplete="off"
              className="mono"
              value={secret}
              aria-describedby={`${id}-secret-help`}
              onChange={(e) => setSecret(e.target.value)}
            />
          </label>
        </div>
        <p id={`${id}-secret-help`} className="muted small">
          16 to 256 characters; one is generated for you. Each delivery carries{' '}
          <code>X-Svc-Signature: sha256=HMAC-SHA256(secret, X-Svc-Timestamp + "." + body)</code>. svc stores
          the secret encrypted and never shows it again.
        </p>
        {create.error ? <ErrorState error={create.error} /> : null}
        <div className="row">
          <button type="submit" className="button primary" disabled={create.isPending || !url.trim()}>
            {create.isPending ? 'Adding…' : 'Add webhook'}
          </button>
          <button type="button" className="button" onClick={() => setSecret(generateSecret())}>
            New secret
          </button>
        </div>
      </form>
      {created ? (
        <NewSecret url={created.hook.url} secret={created.secret} onDone={() => setCreated(null)} />
      ) : null}
    </>
  );
}

function NewSecret({ url, secret, onDone }: { url: string; secret: string; onDone: () => void }) {
  return (
    <SecretOnce
      title="Webhook added: copy its secret now"
      secret={secret}
      testId="webhook-secret"
      onDone={onDone}
    >
      Your endpoint <code className="break">{url}</code> verifies deliveries with this secret.
    </SecretOnce>
  );
}

const deliveryColumns: Column<Delivery>[] = [
  {
    key: 'status',
    header: 'Status',
    cell: (d) => <span className={DELIVERY_STATUS[d.status].tone}>{DELIVERY_STATUS[d.status].label}</span>,
    sort: (d) => d.status,
  },
  { key: 'what', header: 'Delivery', cell: (d) => deliverySubject(d) },
  { key: 'attempts', header: 'Attempts', cell: (d) => d.attempts, sort: (d) => d.attempts, numeric: true },
  { key: 'created', header: 'Queued', cell: (d) => <Time at={d.created_at} />, sort: (d) => d.created_at },
  {
    key: 'delivered',
    header: 'Delivered / next try',
    cell: (d) =>
      d.delivered_at ? (
        <Time at={d.delivered_at} />
      ) : d.next_attempt_at ? (
        <span>
          next <Time at={d.next_attempt_at} />
        </span>
      ) : (
        '–'
      ),
  },
  { key: 'http', header: 'HTTP', cell: (d) => d.last_status ?? '–', numeric: true },
  {
    key: 'error',
    header: 'Last error',
    cell: (d) => (d.last_error ? <span className="wrap-cell">{d.last_error}</span> : '–'),
  },
];

function WebhookCard({ hook }: { hook: Webhook }) {
  const client = useQueryClient();
  const deliveries = useQuery({
    queryKey: deliveriesKey(hook.id),
    queryFn: () =>
      unwrap(
        api.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: { limit: 50 } } }),
      ),
    // A queued delivery is sent within a minute: poll until nothing is pending.
    refetchInterval: (q) => (hasPending(q.state.data) ? 5_000 : false),
  });
  const test = useMutation({
    mutationFn: () => unwrap(api.POST('/api/webhooks/{id}/test', { params: { path: { id: hook.id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: deliveriesKey(hook.id) }),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/webhooks/{id}', { params: { path: { id: hook.id } } })),
    onSettled: () => client.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
  const headingId = `webhook-${hook.id}-title`;
  return (
    <article className="card stack" aria-labelledby={headingId}>
      <div className="page-header">
        <div>
          <h3 id={headingId} className="break">
            {hook.url}
          </h3>
          <p className="muted small">
            Added <Time at={hook.created_at} />
          </p>
        </div>
        <div className="page-actions">
          <button type="button" className="button" disabled={test.isPending} onClick={() => test.mutate()}>
            {test.isPending ? 'Queuing…' : 'Send test'}
            <span className="sr-only"> to {hook.url}</span>
          </button>
          <button
            type="button"
            className="button danger"
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm(`Delete the webhook ${hook.url}? Its pending deliveries are dropped.`))
                remove.mutate();
            }}
          >
            Delete<span className="sr-only"> {hook.url}</span>
          </button>
        </div>
      </div>
      {test.data ? (
        <p className="notice small" role="status">
          Test delivery #{test.data.id} queued: it is sent within a minute, signed like a real alert, with{' '}
          <code>"test": true</code>.
        </p>
      ) : null}
      {test.error ? <ErrorState error={test.error} /> : null}
      {remove.error ? <ErrorState error={remove.error} /> : null}
      <div data-testid="webhook-deliveries">
        <QueryView
          query={deliveries}
          label="Loading the delivery log"
          empty={(list) =>
            list.length === 0 ? (
              <Empty title="Nothing delivered yet">
                <p>Firings of your alert rules show up here. Send a test to try the endpoint now.</p>
              </Empty>
            ) : null
          }
        >
          {(list) => (
            <DataTable
              rows={list}
              columns={deliveryColumns}
              rowKey={(d) => d.id}
              caption={`Deliveries to ${hook.url}, newest first`}
            />
          )}
        </QueryView>
      </div>
    </article>
  );
}
