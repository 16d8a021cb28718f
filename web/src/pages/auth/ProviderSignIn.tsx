/**
 * Sign in with a provider: one button per enabled provider (GET /api/auth/providers), each a plain
 * link to the API's start URL (the browser leaves for the provider and comes back signed in), and
 * the message of a failed attempt (`?oauth_error=<code>`).
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { oauthErrorMessage, providerStartUrl } from './oauth-errors';

export const PROVIDERS_KEY = ['auth', 'providers'] as const;

export function useProviders() {
  return useQuery({
    queryKey: PROVIDERS_KEY,
    queryFn: () => unwrap(api.GET('/api/auth/providers')),
    staleTime: 10 * 60_000,
  });
}

/** The buttons, or nothing when no provider is enabled (or the list cannot be read). */
export function ProviderButtons({ next, verb }: { next: string; verb: 'Sign in' | 'Sign up' }) {
  const providers = useProviders().data?.providers ?? [];
  if (providers.length === 0) return null;
  return (
    <section className="card stack" aria-label="Sign in with another account">
      {providers.map((p) => (
        <a key={p.id} className="button" href={providerStartUrl(p.id, next)} data-provider={p.id}>
          {verb} with {p.name}
        </a>
      ))}
    </section>
  );
}

export function OAuthErrorNotice({ code }: { code: string | null }) {
  const message = oauthErrorMessage(code);
  if (!message) return null;
  return (
    <p className="notice" role="alert" data-testid="oauth-error">
      {message}
    </p>
  );
}
