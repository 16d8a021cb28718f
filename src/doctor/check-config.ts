/**
 * The configuration: loadConfig already accepted every variable (a bad one exits 2 before any
 * check runs), so this looks at what the server would do with it. The secrets are resolved the
 * way resolveJwtSecret and resolveSecretsKeys do, but read-only: the doctor never writes a
 * generated secret into DATA_DIR. Settings that work on one host but not on several (a secret
 * per host), or that leave cookies without Secure on a public address, are warnings.
 */
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Config, isLoopbackHttp, parseKey } from '../config.js';
import type { Check, Finding } from './doctor.js';
import { maskUrl } from './mask.js';

/** Where a secret comes from (`said`, a phrase for the line), or why the server could not get it. */
type Source = { said: string } | { fail: string };

function readSecretFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Where DATA_DIR's generated secrets would go: the directory, or its nearest existing parent. */
function writable(dir: string): boolean {
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    accessSync(at, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function generatedInto(config: Config, name: string, variable: string): Source {
  return writable(config.dataDir)
    ? { said: `to be generated into ${join(config.dataDir, name)} on first start` }
    : {
        fail: `${variable} is not set and ${config.dataDir} is not writable, so ${name} cannot be generated`,
      };
}

function jwtSource(config: Config): Source {
  if (config.jwtSecret) return { said: 'from JWT_SECRET' };
  const file = join(config.dataDir, 'jwt-secret');
  const stored = readSecretFile(file);
  if (stored === undefined) return generatedInto(config, 'jwt-secret', 'JWT_SECRET');
  // readOrCreateSecret would keep using a short file as it is: say so before anyone relies on it.
  if (stored.length < 32) {
    return { fail: `${file} holds ${stored.length} characters (32 needed): delete it or set JWT_SECRET` };
  }
  return { said: `from ${file}` };
}

function secretsKeySource(config: Config): Source {
  const previous = config.secretsKeyPrevious.length;
  const plus = previous > 0 ? ` (+${previous} in SECRETS_KEY_PREVIOUS)` : '';
  if (config.secretsKey) return { said: `from SECRETS_KEY${plus}` };
  const file = join(config.dataDir, 'secrets-key');
  const stored = readSecretFile(file);
  if (stored === undefined) return generatedInto(config, 'secrets-key', 'SECRETS_KEY');
  if (!parseKey(stored)) {
    return { fail: `${file} is not a 32-byte key (hex or base64): restore it or set SECRETS_KEY` };
  }
  return { said: `from ${file}${plus}` };
}

/** Settings that are fine for one process on one host and wrong for a deployment. */
function warnings(config: Config): Finding[] {
  const found: string[] = [];
  // With DATABASE_URL several serve and worker processes, on several hosts, share one database.
  if (config.databaseUrl && !config.jwtSecret) {
    found.push(
      'JWT_SECRET is not set: each host signs sessions with its own DATA_DIR/jwt-secret; set one JWT_SECRET on every host',
    );
  }
  if (config.databaseUrl && !config.secretsKey) {
    found.push(
      'SECRETS_KEY is not set: webhook secrets are encrypted with this host’s DATA_DIR/secrets-key; set one SECRETS_KEY on every host',
    );
  }
  const publicUrl = new URL(config.publicUrl);
  if (publicUrl.protocol === 'http:' && !isLoopbackHttp(publicUrl)) {
    found.push(
      `PUBLIC_URL is ${publicUrl.origin}: cookies go without Secure; serve https (behind a proxy, TRUST_PROXY=true)`,
    );
  }
  return found.map((detail) => ({ status: 'warn', detail }));
}

export const configCheck: Check = {
  name: 'config',
  async run({ config }) {
    const jwt = jwtSource(config);
    const key = secretsKeySource(config);
    const failures = [jwt, key].flatMap((s) => ('fail' in s ? [s.fail] : []));
    if (failures.length > 0) return [{ status: 'FAIL', detail: failures.join('; ') }, ...warnings(config)];
    const said = (s: Source) => ('said' in s ? s.said : '');
    const where = `${config.host}:${config.port === 0 ? '(any free port)' : config.port}`;
    return [
      {
        status: 'ok',
        detail: `PUBLIC_URL ${maskUrl(config.publicUrl)}, listening on ${where}; JWT secret ${said(jwt)}; secrets key ${said(key)}`,
      },
      ...warnings(config),
    ];
  },
};
