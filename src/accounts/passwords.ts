import { hash, verify } from '@node-rs/argon2';

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, which isolated modules cannot import)

/** OWASP Password Storage Cheat Sheet: argon2id, m = 19 MiB, t = 2, p = 1. */
const PARAMS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

// A real hash of a random string: verifying against it costs what verifying a real account does,
// so a wrong e-mail takes as long as a wrong password (no account enumeration by timing).
let dummy: Promise<string> | undefined;

/**
 * Verifies `password` against `stored`, or burns the same time when there is no account or the
 * account has no password (null: it signs in through a third-party provider only).
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (stored === undefined || stored === null) {
    dummy ??= hashPassword(`no-such-account-${Math.random()}`);
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
