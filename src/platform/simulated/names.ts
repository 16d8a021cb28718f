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
  'Giant',
  'Mini',
  'Mystic',
  'Savage',
  'Silent',
  'Crimson',
  'Emerald',
  'Stormy',
  'Lunar',
  'Solar',
  'Rapid',
  'Brave',
  'Funky',
  'Retro',
  'Mighty',
  'Jolly',
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
  'Unicorn',
  'Penguin',
  'Shark',
  'Wizard',
  'Knight',
  'Samurai',
  'Viking',
  'Alien',
  'Ghost',
  'Vampire',
  'Train',
  'Plane',
  'Boat',
  'Tank',
  'Mech',
  'Crystal',
  'Lava',
  'Panda',
  'Fox',
  'Wolf',
  'Frog',
  'Duck',
  'Burger',
  'Sushi',
  'Donut',
  'Cookie',
  'Noob',
  'Spy',
  'Chef',
  'Miner',
  'Gem',
  'Dinosaur',
  'Treasure',
  'Volcano',
  'Meteor',
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

/** Per genre; most have two slots ({A} {N}) so a genre of a thousand games rarely repeats a name. */
const TEMPLATES: Record<string, readonly string[]> = {
  action: [
    '{N} Battlegrounds',
    '{A} {N} Fighters',
    '{N} Legends',
    'Blade of {N}s',
    '{A} {N} Brawl',
    '{A} {N} Clash',
  ],
  adventure: [
    '{A} {N} Quest',
    'Escape the {N}',
    '{N} Expedition',
    'Lost {N} Island',
    '{A} {N} Journey',
    '{A} {N} Odyssey',
  ],
  education: ['Learn with {N}s', '{N} Math Academy', 'Science {N} Lab', '{A} {N} School', '{A} {N} Quiz'],
  entertainment: ['{N} Concert Hall', '{A} Showcase', '{N} Movie Night', '{A} {N} Show', '{A} {N} Stage'],
  obby_platformer: [
    '{A} Tower Obby',
    'Escape {N} Obby',
    '{N} Parkour',
    'Easy {N} Obby',
    '{A} {N} Obby',
    '{A} {N} Parkour',
  ],
  party_casual: [
    '{N} Party',
    'Guess the {N}',
    '{A} Minigames',
    'Draw the {N}',
    '{A} {N} Party',
    '{A} {N} Games',
  ],
  puzzle: ['{N} Escape Room', '{A} Merge', '{N} Word Hunt', '{A} {N} Puzzle', '{A} {N} Merge'],
  rpg: ['{N} Fruits', '{A} {N} Saga', '{N} Online', 'Realm of {N}s', '{A} {N} Legends', '{A} {N} Kingdom'],
  roleplay_avatar_sim: [
    '{P} RP',
    '{A} Life',
    '{P}',
    'Adopt a {N}',
    '{N} Dress Up',
    '{A} {N} Life',
    '{A} {N} Town RP',
    '{A} {P}',
  ],
  shooter: ['{N} Strike', '{A} Arsenal', '{N} Warfare', 'Battle {N}s', '{A} {N} Strike', '{A} {N} Ops'],
  shopping: ['{A} Avatar Shop', '{N} Catalog Mall', '{A} {N} Store', '{A} {N} Outfits'],
  simulation: [
    '{N} Simulator',
    '{A} {N} Simulator',
    '{N} Tycoon',
    'Idle {N} Factory',
    '{N} Incremental',
    '{A} {N} Tycoon',
    '{A} {N} Incremental',
  ],
  social: ['{A} Hangout', '{N} Chill Zone', 'Meet {N}s', '{A} {N} Cafe', '{A} {N} Lounge'],
  sports_racing: [
    '{A} Racing',
    '{N} Soccer League',
    'Drive {N}s',
    '{N} Basketball',
    '{A} {N} Racing',
    '{A} {N} Cup',
  ],
  strategy: ['{N} Tower Defense', '{A} {N} Defense', '{N} Chess Club', '{A} {N} Tactics', '{A} {N} Wars'],
  survival: [
    'Survive the {N}',
    '{A} Night',
    '{N} Apocalypse',
    '99 Nights with {N}s',
    '{A} {N} Survival',
    '{A} {N} Island',
  ],
  utility_other: ['{N} Testing Place', '{A} Utility Hub', '{A} {N} Sandbox', '{A} {N} Place'],
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

/**
 * A genre-typical name; `attempt` draws another one (the catalogue asks again while the name is
 * taken in the genre, so only planted copycats share names).
 */
export function gameBaseName(genre: string, seed: number, index: number, attempt = 0): string {
  const templates = TEMPLATES[genre] ?? TEMPLATES.utility_other!;
  const salt = attempt * 10;
  return pick(templates, uniform(seed, index, 101 + salt))
    .replace('{A}', pick(ADJ, uniform(seed, index, 102 + salt)))
    .replace('{N}', pick(NOUN, uniform(seed, index, 103 + salt)))
    .replace('{P}', pick(PLACE, uniform(seed, index, 104 + salt)));
}

/** Popular names get numbered sequels and tags, as real ones do. */
export function withTag(name: string, seed: number, index: number): string {
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
