import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { EmailField } from '../../components/EmailField';
import { ErrorState } from '../../components/states';
import { safeNext } from '../../lib/forms';
import { ME_KEY } from '../../lib/session';
import { OAuthErrorNotice, ProviderButtons } from './ProviderSignIn';

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => unwrap(api.POST('/api/auth/login', { body })),
    onSuccess: async () => {
      client.removeQueries();
      await client.fetchQuery({ queryKey: ME_KEY, queryFn: () => unwrap(api.GET('/api/auth/me')) });
    },
  });
}

export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useSignIn();
  const next = safeNext(params.get('next'));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate({ email, password }, { onSuccess: () => navigate(next, { replace: true }) });
  };
  return (
    <div className="page narrow">
      <h1>Sign in</h1>
      {params.get('next') ? <p className="notice">Sign in to continue to {next}.</p> : null}
      <OAuthErrorNotice code={params.get('oauth_error')} />
      <form className="card stack" onSubmit={submit} aria-label="Sign in">
        <EmailField value={email} onChange={setEmail} />
        <label>
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <Link to="/forgot-password" className="small">
          Forgot your password?
        </Link>
        {signIn.error ? <ErrorState error={signIn.error} /> : null}
        <button type="submit" className="button primary" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <ProviderButtons next={next} verb="Sign in" />
      <p>
        No account yet?{' '}
        <Link to={`/register${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>
          Create one
        </Link>
      </p>
    </div>
  );
}
