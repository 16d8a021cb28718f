import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { EmailField } from '../../components/EmailField';
import { ErrorState } from '../../components/states';

export function Component() {
  const [email, setEmail] = useState('');
  const forgot = useMutation({
    mutationFn: (body: { email: string }) => unwrap(api.POST('/api/auth/password/forgot', { body })),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    forgot.mutate({ email });
  };
  return (
    <div className="page narrow">
      <h1>Forgot your password?</h1>
      {forgot.isSuccess ? (
        <p className="notice" role="status">
          If an account uses {email}, a link to reset its password is on its way. The link works once, for one
          hour.
        </p>
      ) : (
        <form className="card stack" onSubmit={submit} aria-label="Reset password">
          <p>
            Enter the e-mail address of your account and we will mail you a link to choose a new password.
          </p>
          <EmailField value={email} onChange={setEmail} />
          {forgot.error ? <ErrorState error={forgot.error} /> : null}
          <button type="submit" className="button primary" disabled={forgot.isPending}>
            {forgot.isPending ? 'Sending…' : 'Send the link'}
          </button>
        </form>
      )}
      <p>
        <Link to="/signin">Back to sign in</Link>
      </p>
    </div>
  );
}
