/**
 * Roblox's genre_l1 taxonomy (creator docs, "Experience genres"): the genre keys every game is
 * filed under and the names users see. Keys are lower snake case of the display name.
 */
export const GENRE_TAXONOMY: readonly { key: string; name: string }[] = [
  { key: 'action', name: 'Action' },
  { key: 'adventure', name: 'Adventure' },
  { key: 'education', name: 'Education' },
  { key: 'entertainment', name: 'Entertainment' },
  { key: 'obby_platformer', name: 'Obby & platformer' },
  { key: 'party_casual', name: 'Party & casual' },
  { key: 'puzzle', name: 'Puzzle' },
  { key: 'rpg', name: 'RPG' },
  { key: 'roleplay_avatar_sim', name: 'Roleplay & avatar sim' },
  { key: 'shooter', name: 'Shooter' },
  { key: 'shopping', name: 'Shopping' },
  { key: 'simulation', name: 'Simulation' },
  { key: 'social', name: 'Social' },
  { key: 'sports_racing', name: 'Sports & racing' },
  { key: 'strategy', name: 'Strategy' },
  { key: 'survival', name: 'Survival' },
  { key: 'utility_other', name: 'Utility & other' },
];

const NAMES = new Map(GENRE_TAXONOMY.map((g) => [g.key, g.name]));

/** The display name of a genre key; an unknown key reads as itself, 'unknown' as "Unclassified". */
export function genreDisplayName(key: string): string {
  if (key === 'unknown') return 'Unclassified';
  return NAMES.get(key) ?? key;
}

export const GENRE_KEYS: readonly string[] = GENRE_TAXONOMY.map((g) => g.key);
