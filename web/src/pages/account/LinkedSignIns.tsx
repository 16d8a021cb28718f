/**
 * Linked sign-ins: the providers linked to this account (Google, Roblox, Discord, X) with Unlink,
 * and Link for the enabled ones not linked yet (the browser goes to the provider and comes back
 * here). Unlink is offered only while another way to sign in remains (the API refuses the last one).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, type Schemas, unwrap } from '../../api/client';
import { ErrorState, QueryView } from '../../components/states';
import { Time } from '../../components/Time';
import { OAuthErrorNotice, useProviders } from '../auth/ProviderSignIn';

type Identity = Schemas['Identity'];

export const IDENTITIES_KEY = ['auth', 'identities'] as const;

export function LinkedSignIns() {
  const [params] = useSearchParams();
  const client = useQueryClient();
  const identities = useQuery({
    queryKey: IDENTITIES_KEY,
    queryFn: () => unwrap(api.GET('/api/auth/identities')),
  });
  const providers = useProviders();
  const link = useMutation({
    mutationFn: (provider: string) =>
      unwrap(
        api.POST('/api/auth/oauth/{provider}/link', {
          params: { path: { provider } },
          body: { return_to: '/account' },
        }),
      ),
    onSuccess: (started) => window.location.assign(started.authorize_url),
  });
  const unlink = useMutation({
    mutationFn: (provider: string) =>
      unwrap(api.DELETE('/api/auth/oauth/{provider}', { params: { path: { provider } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: IDENTITIES_KEY }),
  });
  return (
    <section className="card stack" aria-labelledby="linked-heading">
      <h2 id="linked-heading">Linked sign-ins</h2>
      <p className="muted">Sign in with another account instead of your password.</p>
      <OAuthErrorNotice code={params.get('oauth_error')} />
      {link.error ? <ErrorState error={link.error} /> : null}
      {unlink.error ? <ErrorState error={unlink.error} /> : null}
      <QueryView query={identities} label="Loading your linked sign-ins">
        {(data) => {
          const linked = new Map(data.identities.map((i) => [i.provider, i]));
          const canUnlink = data.has_password || data.identities.length > 1;
          const enabled = providers.data?.providers ?? [];
          const rows = [
            ...data.identities.map((i) => ({ id: i.provider, name: i.name })),
            ...enabled.filter((p) => !linked.has(p.id)),
          ];
          if (rows.length === 0) return <p className="muted">No sign-in providers are enabled here.</p>;
          return (
            <ul className="stack linked-sign-ins">
              {rows.map((row) => (
                <li key={row.id} className="row" data-provider={row.id}>
                  <ProviderRow name={row.name} identity={linked.get(row.id)} />
                  {linked.has(row.id) ? (
                    <button
                      type="button"
                      className="button danger"
                      disabled={!canUnlink || unlink.isPending}
                      title={canUnlink ? undefined : 'Your only way to sign in: link another provider first'}
                      onClick={() => unlink.mutate(row.id)}
                    >
                      Unlink {row.name}
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="button"
                      disabled={link.isPending}
                      onClick={() => link.mutate(row.id)}
                    >
                      Link {row.name}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          );
        }}
      </QueryView>
    </section>
  );
}

function ProviderRow({ name, identity }: { name: string; identity: Identity | undefined }) {
  if (!identity) {
    return (
      <span>
        <strong>{name}</strong> <span className="muted">not linked</span>
      </span>
    );
  }
  const who = identity.display_name ?? identity.email ?? identity.subject;
  return (
    <span>
      <strong>{name}</strong> {who}{' '}
      <span className="muted small">
        last used <Time at={identity.last_used_at} relative />
      </span>
    </span>
  );
}
