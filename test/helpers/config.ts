import { ConfigError, loadConfig } from '../../src/config.js';

/** The ConfigError loadConfig throws for `env` (fails the test when it accepts it). */
export function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

/** The message of configErrorOf(env). */
export function configError(env: Record<string, string>): string {
  return configErrorOf(env).message;
}
