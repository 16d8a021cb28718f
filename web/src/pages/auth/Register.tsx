import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { EmailField } from '../../components/EmailField';
import { ErrorState } from '../../components/states';
import { safeNext } from '../../lib/forms';
import { ProviderButtons } from './ProviderSignIn';
import { useSignIn } from './SignIn';

const PASSWORD_MIN = 10;

export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useSignIn();
  const register = useMutation({
    mutationFn: (body: { email: string; password: string }) =>
      unwrap(api.POST('/api/auth/register', { body })),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    register.mutate(
      { email, password },
      {
        onSuccess: () =>
          signIn.mutate(
            { email, password },
            { onSuccess: () => navigate(safeNext(params.get('next')), { replace: true }) },
          ),
      },
    );
  };
  const tooShort = password.length > 0 && password.length < PASSWORD_MIN;
  return (
    <div className="page narrow">
      <h1>Create your account</h1>
      <p className="muted">Free on the Explorer plan: trending games, genre overview and search.</p>
      <form className="card stack" onSubmit={submit} aria-label="Create account">
        <EmailField value={email} onChange={setEmail} />
        <label>
          Password
          <input
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN}
            aria-describedby="password-help"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <span id="password-help" className={tooShort ? 'field-error' : 'muted small'}>
            At least {PASSWORD_MIN} characters.
          </span>
        </label>
        {register.error ? <ErrorState error={register.error} /> : null}
        {signIn.error ? <ErrorState error={signIn.error} /> : null}
        <button type="submit" className="button primary" disabled={register.isPending || signIn.isPending}>
          {register.isPending || signIn.isPending ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <ProviderButtons next={safeNext(params.get('next'))} verb="Sign up" />
      <p>
        Already have an account? <Link to="/signin">Sign in</Link>
      </p>
    </div>
  );
}
