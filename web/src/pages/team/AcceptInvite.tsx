/**
 * /team/accept?token=…: the link of an invitation e-mail. Signed out, links to sign in or create
 * an account that come back here; signed in, one button accepts (as the invited address, on any
 * plan), then the app switches to the team.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ErrorState } from '../../components/states';
import { useMe } from '../../lib/session';
import { MEMBERSHIPS_KEY, selectTeam } from '../../lib/team';
import { ROLE_LABEL } from './roles';

function SignedOut() {
  const location = useLocation();
  const next = encodeURIComponent(`${location.pathname}${location.search}`);
  return (
    <div className="card stack" data-testid="accept-signed-out">
      <p>Sign in with the address the invitation was sent to, then accept it here.</p>
      <div className="row">
        <Link className="button primary" to={`/signin?next=${next}`}>
          Sign in to accept
        </Link>
        <Link className="button" to={`/register?next=${next}`}>
          Create an account
        </Link>
      </div>
    </div>
  );
}

function Accept({ token, email }: { token: string; email: string }) {
  const client = useQueryClient();
  const accept = useMutation({
    mutationFn: () => unwrap(api.POST('/api/team/accept', { body: { token } })),
    onSuccess: async (membership) => {
      await client.invalidateQueries({ queryKey: MEMBERSHIPS_KEY });
      selectTeam(membership.id);
    },
  });
  if (accept.isSuccess) {
    return (
      <div className="card stack" role="status" data-testid="accept-done">
        <p>
          You joined <strong>{accept.data.name}</strong> as {ROLE_LABEL[accept.data.role].toLowerCase()}. The
          app now acts in this team; switch back to your personal team with the team menu at the top.
        </p>
        <div className="row">
          <Link className="button primary" to="/team">
            Open the team
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div className="card stack">
      <p>
        You are signed in as <strong>{email}</strong>. The invitation must be for this address.
      </p>
      {accept.error ? <ErrorState error={accept.error} /> : null}
      <div className="row">
        <button
          type="button"
          className="button primary"
          disabled={accept.isPending}
          onClick={() => accept.mutate()}
        >
          {accept.isPending ? 'Accepting…' : 'Accept the invitation'}
        </button>
      </div>
    </div>
  );
}

export function Component() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const me = useMe().data;
  return (
    <div className="page narrow">
      <h1>Join a team</h1>
      {!token ? (
        <p className="notice">This link has no token: open the whole link from the invitation e-mail.</p>
      ) : me ? (
        <Accept token={token} email={me.email} />
      ) : (
        <SignedOut />
      )}
    </div>
  );
}
