/** TypeBox schemas of the tracking endpoints; field names exactly as spec/interface.md §2 spells them. */
import { type Static, Type } from 'typebox';
import { Id, OneOf } from '../http/schemas.js';
import { PLANS } from '../plans.js';

export const UniverseParams = Type.Object({
  universe_id: Id('Universe (experience) id of the game'),
});

export const TrackResult = Type.Object(
  {
    status: Type.Literal('tracked'),
    universe_id: Type.Integer({ description: 'The tracked universe' }),
    tracked_count: Type.Integer({
      minimum: 0,
      description: 'Games the caller tracks now, this one included',
    }),
    limit: Type.Integer({
      minimum: 0,
      description: "The caller's plan cap: Explorer 5, Builder 25, Studio 100, Enterprise 500",
    }),
  },
  { $id: 'TrackResult', title: 'TrackResult', additionalProperties: false },
);

export const UntrackResult = Type.Object(
  {
    status: Type.Literal('untracked'),
    universe_id: Type.Integer({ description: 'The universe no longer tracked' }),
  },
  { $id: 'UntrackResult', title: 'UntrackResult', additionalProperties: false },
);

export const TrackedList = Type.Object(
  {
    tracked_games: Type.Array(Type.Integer(), {
      description:
        'Universe ids the team tracks, oldest first (the personal team: the same list as /api/auth/me).',
    }),
    tracked_count: Type.Integer({ minimum: 0 }),
    plan: OneOf(PLANS, {
      description: "The plan whose caps apply here: the team's (its owner's), or yours.",
    }),
    limit: Type.Integer({ minimum: 0, description: 'Tracked-game cap of that plan.' }),
    alerts_limit: Type.Integer({ minimum: 0, description: 'Alert-rule cap of that plan.' }),
  },
  { $id: 'TrackedList', title: 'TrackedList', additionalProperties: false },
);

export const trackingSchemas = [TrackResult, UntrackResult, TrackedList];
export type TrackedListT = Static<typeof TrackedList>;

export type TrackResultT = Static<typeof TrackResult>;
export type UntrackResultT = Static<typeof UntrackResult>;
