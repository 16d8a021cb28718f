/**
 * Change password (POST /api/auth/password/change): the current one, the new one twice. Success
 * ends every other session of the account; this browser gets a new session (new cookies) at once.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ErrorState } from '../../components/states';
import { newPasswordProblem, PASSWORD_MAX, PASSWORD_MIN } from '../../lib/forms';
import { IDENTITIES_KEY } from './LinkedSignIns';

export function ChangePassword() {
  const id = useId();
  // The same query as the linked sign-ins: an account made through a provider has no password yet.
  const identities = useQuery({
    queryKey: IDENTITIES_KEY,
    queryFn: () => unwrap(api.GET('/api/auth/identities')),
  });
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [tried, setTried] = useState(false);
  const change = useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) =>
      unwrap(api.POST('/api/auth/password/change', { body })),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setConfirm('');
      setTried(false);
    },
  });
  const problem = newPasswordProblem(next, confirm);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (problem || !current) return;
    change.mutate({ current_password: current, new_password: next });
  };
  const edit = () => {
    if (change.isSuccess || change.isError) change.reset();
  };
  if (identities.data?.has_password === false) {
    return (
      <section className="card stack" aria-labelledby={`${id}-heading`}>
        <h2 id={`${id}-heading`}>Password</h2>
        <p className="muted">
          You sign in through a linked provider and have no password here. To add one, use{' '}
          <Link to="/forgot-password">Forgot your password?</Link> with your e-mail address.
        </p>
      </section>
    );
  }
  return (
    <section className="card stack" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Change password</h2>
      <form className="stack password-form" onSubmit={submit} aria-labelledby={`${id}-heading`} noValidate>
        <label>
          Current password
          <input
            type="password"
            name="current-password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => {
              setCurrent(e.target.value);
              edit();
            }}
          />
        </label>
        <label>
          New password
          <input
            type="password"
            name="new-password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN}
            maxLength={PASSWORD_MAX}
            aria-describedby={`${id}-help`}
            value={next}
            onChange={(e) => {
              setNext(e.target.value);
              edit();
            }}
          />
        </label>
        <label>
          Confirm the new password
          <input
            type="password"
            name="confirm-password"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => {
              setConfirm(e.target.value);
              edit();
            }}
          />
        </label>
        <p id={`${id}-help`} className="muted small">
          {PASSWORD_MIN} to {PASSWORD_MAX} characters. Every other device signed in to this account is signed
          out.
        </p>
        {tried && (problem || !current) ? (
          <p className="field-error" role="alert">
            {current ? problem : 'Enter your current password.'}
          </p>
        ) : null}
        {change.error ? <ErrorState error={change.error} /> : null}
        <p role="status" className="small">
          {change.isSuccess ? (
            <span className="good" data-testid="password-changed">
              Your password is changed. Other sessions were signed out; you stay signed in here.
            </span>
          ) : null}
        </p>
        <div className="row">
          <button type="submit" className="button primary" disabled={change.isPending}>
            {change.isPending ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}
