/** The fields every game summary carries (trending, radar, overview, search): interface §2. */
export interface GameSummary {
  place_id: number;
  universe_id: number;
  name: string;
  creator: string;
  genre: string;
  ccu: number;
}
