import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ErrorState } from '../../components/states';
import { ME_KEY } from '../../lib/session';

export function Component() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const client = useQueryClient();
  const reset = useMutation({
    mutationFn: (body: { token: string; password: string }) =>
      unwrap(api.POST('/api/auth/password/reset', { body })),
    onSuccess: () => {
      // Every session of the account ended.
      client.clear();
      client.setQueryData(ME_KEY, null);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    reset.mutate({ token, password });
  };
  if (!token) {
    return (
      <div className="page narrow">
        <h1>Reset your password</h1>
        <p className="notice">
          This link has no token. <Link to="/forgot-password">Ask for a new link</Link>.
        </p>
      </div>
    );
  }
  return (
    <div className="page narrow">
      <h1>Reset your password</h1>
      {reset.isSuccess ? (
        <p className="notice" role="status">
          Your password is changed and every session has ended. <Link to="/signin">Sign in</Link> with the new
          password.
        </p>
      ) : (
        <form className="card stack" onSubmit={submit} aria-label="Choose a new password">
          <label>
            New password
            <input
              type="password"
              name="password"
              autoComplete="new-password"
              required
              minLength={10}
              maxLength={128}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <p className="muted small">10 to 128 characters.</p>
          {reset.error ? <ErrorState error={reset.error} /> : null}
          <button type="submit" className="button primary" disabled={reset.isPending}>
            {reset.isPending ? 'Saving…' : 'Set the new password'}
          </button>
          {reset.error ? (
            <p>
              <Link to="/forgot-password">Ask for a new link</Link>
            </p>
          ) : null}
        </form>
      )}
    </div>
  );
}
