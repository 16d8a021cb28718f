import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ErrorState, Loading } from '../../components/states';
import { ME_KEY } from '../../lib/session';

export function Component() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const client = useQueryClient();
  const verify = useMutation({
    mutationFn: (body: { token: string }) => unwrap(api.POST('/api/auth/verify', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ME_KEY }),
  });
  // The token is single use: send it once, even when React runs effects twice.
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    verify.mutate({ token });
  }, [token, verify]);
  return (
    <div className="page narrow">
      <h1>Confirm your e-mail address</h1>
      {!token ? (
        <p className="notice">This link has no token.</p>
      ) : verify.isSuccess ? (
        <p className="notice" role="status">
          Your e-mail address is confirmed: alert e-mails can reach you now. <Link to="/">Continue</Link>
        </p>
      ) : verify.error ? (
        <>
          <ErrorState error={verify.error} />
          <p className="muted">
            Signed in, you can ask for a new link from the banner at the top of the page.
          </p>
        </>
      ) : (
        <Loading label="Confirming" />
      )}
    </div>
  );
}
