/**
 * Follow or unfollow a game or a creator for the intelligence feed (POST/DELETE
 * /api/intelligence/follows), with how many the plan allows. Signed-in users only.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { api, type Schemas, unwrap } from '../api/client';
import { useMe } from '../lib/session';
import { ErrorState } from './states';

export const FOLLOWS_KEY = ['intelligence', 'follows'] as const;

export type FollowTarget =
  | { kind: 'game'; place_id: number }
  | { kind: 'creator'; creator_type: 'user' | 'group'; creator_id: number };

export function useFollows(enabled: boolean) {
  return useQuery({
    queryKey: FOLLOWS_KEY,
    queryFn: () => unwrap(api.GET('/api/intelligence/follows')),
    enabled,
  });
}

export function isFollowed(follows: Schemas['Follow'][], t: FollowTarget): boolean {
  return follows.some((f) =>
    t.kind === 'game'
      ? f.kind === 'game' && f.place_id === t.place_id
      : f.kind === 'creator' && f.creator_type === t.creator_type && f.creator_id === t.creator_id,
  );
}

/** The DELETE query for a follow target. */
export function unfollowQuery(t: FollowTarget) {
  return t.kind === 'game'
    ? { kind: 'game' as const, place_id: t.place_id }
    : { kind: 'creator' as const, creator_type: t.creator_type, creator_id: t.creator_id };
}

export function FollowButton({ target, label }: { target: FollowTarget; label: string }) {
  const me = useMe();
  const location = useLocation();
  const client = useQueryClient();
  const follows = useFollows(Boolean(me.data));
  const followed = follows.data ? isFollowed(follows.data.follows, target) : false;
  const toggle = useMutation({
    mutationFn: async () => {
      if (followed) {
        await unwrap(api.DELETE('/api/intelligence/follows', { params: { query: unfollowQuery(target) } }));
      } else {
        await unwrap(api.POST('/api/intelligence/follows', { body: target }));
      }
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: FOLLOWS_KEY });
      void client.invalidateQueries({ queryKey: ['intelligence', 'feed'] });
    },
  });
  if (!me.data) {
    return (
      <Link className="button" to={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`}>
        Sign in to follow
      </Link>
    );
  }
  return (
    <div className="row" style={{ alignItems: 'center' }}>
      <button
        type="button"
        className={followed ? 'button' : 'button primary'}
        onClick={() => toggle.mutate()}
        disabled={toggle.isPending || follows.isPending}
        data-testid="follow-button"
        aria-label={`${followed ? 'Unfollow' : 'Follow'} ${label}`}
      >
        {followed ? 'Unfollow' : 'Follow'}
      </button>
      {follows.data ? (
        <span className="muted small">
          {follows.data.follows.length} of {follows.data.limit} followed
        </span>
      ) : null}
      {toggle.error ? <ErrorState error={toggle.error} /> : null}
    </div>
  );
}
