/** Word lists and templates that give simulated games Roblox-like names, per genre. */
import { pick, uniform } from './random.js';

const ADJ = [
  'Mega',
  'Super',
  'Tiny',
  'Epic',
  'Ultimate',
  'Crazy',
  'Secret',
  'Lucky',
  'Shadow',
  'Golden',
  'Frozen',
  'Haunted',
  'Neon',
  'Cosmic',
  'Royal',
  'Wild',
  'Magic',
  'Pixel',
  'Turbo',
  'Sunny',
  'Dark',
  'Blocky',
  'Ancient',
  'Hyper',
];
const NOUN = [
  'Pet',
  'Dragon',
  'Ninja',
  'Pirate',
  'Robot',
  'Zombie',
  'Candy',
  'Sword',
  'Island',
  'Castle',
  'Farm',
  'Car',
  'Rocket',
  'Monster',
  'Kingdom',
  'Dungeon',
  'Anime',
  'Blade',
  'Fruit',
  'Tower',
  'Bee',
  'Cat',
  'Dino',
  'Slime',
  'Mining',
  'Fishing',
  'Lumber',
  'Pizza',
  'Bank',
  'Ocean',
  'Jungle',
  'Galaxy',
  'Brainrot',
  'Garden',
  'Toilet',
];
const PLACE = [
  'Berry Avenue',
  'Sunset Town',
  'Maple Hospital',
  'Bloxburg Heights',
  'Harbor City',
  'Pine Valley',
  'Cozy Cove',
  'Royal High',
  'Starlight Mall',
  'Willow Creek',
];

const TEMPLATES: Record<string, readonly string[]> = {
  action: ['{N} Battlegrounds', '{A} {N} Fighters', '{N} Legends', 'Blade of {N}s'],
  adventure: ['{A} {N} Quest', 'Escape the {N}', '{N} Expedition', 'Lost {N} Island'],
  education: ['Learn with {N}s', '{N} Math Academy', 'Science {N} Lab'],
  entertainment: ['{N} Concert Hall', '{A} Showcase', '{N} Movie Night'],
  obby_platformer: ['{A} Tower Obby', 'Escape {N} Obby', '{N} Parkour', 'Easy {N} Obby'],
  party_casual: ['{N} Party', 'Guess the {N}', '{A} Minigames', 'Draw the {N}'],
  puzzle: ['{N} Escape Room', '{A} Merge', '{N} Word Hunt'],
  rpg: ['{N} Fruits', '{A} {N} Saga', '{N} Online', 'Realm of {N}s'],
  roleplay_avatar_sim: ['{P} RP', '{A} Life', '{P}', 'Adopt a {N}', '{N} Dress Up'],
  shooter: ['{N} Strike', '{A} Arsenal', '{N} Warfare', 'Battle {N}s'],
  shopping: ['{A} Avatar Shop', '{N} Catalog Mall'],
  simulation: ['{N} Simulator', '{A} {N} Simulator', '{N} Tycoon', 'Idle {N} Factory', '{N} Incremental'],
  social: ['{A} Hangout', '{N} Chill Zone', 'Meet {N}s'],
  sports_racing: ['{A} Racing', '{N} Soccer League', 'Drive {N}s', '{N} Basketball'],
  strategy: ['{N} Tower Defense', '{A} {N} Defense', '{N} Chess Club'],
  survival: ['Survive the {N}', '{A} Night', '{N} Apocalypse', '99 Nights with {N}s'],
  utility_other: ['{N} Testing Place', '{A} Utility Hub'],
};

const CREATOR_A = [
  'Big',
  'Gamer',
  'Block',
  'Pixel',
  'Nova',
  'Hyper',
  'Dream',
  'Lucky',
  'Frost',
  'Red',
  'Moon',
  'Sky',
];
const CREATOR_B = [
  'Games',
  'Studios',
  'Labs',
  'Interactive',
  'Works',
  'Collective',
  'Entertainment',
  'Builders',
];

export function gameName(genre: string, seed: number, index: number): string {
  const templates = TEMPLATES[genre] ?? TEMPLATES.utility_other!;
  const t = pick(templates, uniform(seed, index, 101));
  const name = t
    .replace('{A}', pick(ADJ, uniform(seed, index, 102)))
    .replace('{N}', pick(NOUN, uniform(seed, index, 103)))
    .replace('{P}', pick(PLACE, uniform(seed, index, 104)));
  // Popular names get numbered sequels and tags, as real ones do.
  const tag = uniform(seed, index, 105);
  if (tag < 0.04) return `${name} 2`;
  if (tag < 0.07) return `[UPDATE] ${name}`;
  return name;
}

export function creatorName(seed: number, creator: number, isGroup: boolean): string {
  const a = pick(CREATOR_A, uniform(seed, creator, 201));
  const b = pick(CREATOR_B, uniform(seed, creator, 202));
  if (isGroup) return `${a} ${b}`;
  return `${a}${pick(['Dev', 'Builder', 'Maker', 'Coder'], uniform(seed, creator, 203))}${Math.floor(uniform(seed, creator, 204) * 999)}`;
}

/** Clone variants of an existing name, as copycat games title themselves. */
export function cloneName(original: string, u: number): string {
  const variants = [
    `${original} [UPDATE]`,
    `${original.toLowerCase()} 2`,
    `${original} X`,
    `${original}!`,
    `NEW ${original}`,
  ];
  return pick(variants, u);
}
