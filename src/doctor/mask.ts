/**
 * What the doctor prints about a connection URL: where it points, never who logs in or with what.
 * The user and password become `***`, and so does the value of any query parameter that reads
 * like a secret (`?password=`, `?token=`). Every printed line also goes through `redact`, which
 * removes the configured passwords and secrets wherever a driver's message might repeat them.
 */
import type { Config } from '../config.js';

const MASK = '***';
const SECRET_PARAM = /pass|secret|token|key|auth|cred/i;

/** One URL (or a comma-separated list of them, as NATS_URL may be) with its credentials masked. */
export function maskUrl(raw: string): string {
  return raw
    .split(',')
    .map((part) => {
      let url: URL;
      try {
        url = new URL(part.trim());
      } catch {
        return '(a URL that does not parse)';
      }
      let masked = false;
      if (url.username !== '' || url.password !== '') {
        url.username = MASK;
        url.password = '';
        masked = true;
      }
      for (const [name] of url.searchParams) {
        if (!SECRET_PARAM.test(name)) continue;
        url.searchParams.set(name, MASK);
        masked = true;
      }
      // Unchanged when there is nothing to hide (URL would add a trailing slash to some).
      return masked ? url.toString() : part.trim();
    })
    .join(',');
}

/** Secrets shorter than this are not searched for: they would mask ordinary words ("secret" in
 * "JWT secret"); the URLs they come from are masked whole anyway. */
const MIN_SECRET = 8;

function urlSecrets(raw: string | undefined): string[] {
  if (!raw) return [];
  const found: string[] = [];
  for (const part of raw.split(',')) {
    try {
      const url = new URL(part.trim());
      if (url.password) found.push(url.password, decodeURIComponent(url.password));
      for (const [name, value] of url.searchParams) if (SECRET_PARAM.test(name)) found.push(value);
    } catch {
      // loadConfig validated every URL; nothing to collect from one that does not parse
    }
  }
  return found;
}

/** Every secret value the configuration holds (passwords in URLs, signing and client secrets). */
export function configSecrets(config: Config): string[] {
  const oauth = Object.values(config.oauth).map((client) => client.clientSecret);
  const all = [
    ...urlSecrets(config.databaseUrl),
    ...urlSecrets(config.redisUrl),
    ...urlSecrets(config.natsUrl),
    ...urlSecrets(config.smtpUrl),
    ...(config.jwtSecret ? [config.jwtSecret] : []),
    ...oauth,
  ];
  // Longest first, so a secret containing another is replaced whole.
  return [...new Set(all.filter((s) => s.length >= MIN_SECRET))].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of each secret replaced by `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(MASK);
  return out;
}
