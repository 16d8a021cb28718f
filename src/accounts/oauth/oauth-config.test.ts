import { describe, expect, it } from 'vitest';
import { configError } from '../../../test/helpers/config.js';
import { loadConfig } from '../../config.js';
import { FlowSealer, type FlowState } from './flow-cookie.js';
import { placeholderEmail } from './oauth.service.js';

describe('OAuth configuration', () => {
  it('enables a provider only when both its client id and secret are set, with the real endpoints by default', () => {
    expect(loadConfig({}).oauth).toEqual({});
    const config = loadConfig({
      OAUTH_GOOGLE_CLIENT_ID: 'g-id',
      OAUTH_GOOGLE_CLIENT_SECRET: 'g-secret',
      OAUTH_ROBLOX_CLIENT_ID: 'r-id',
      OAUTH_ROBLOX_CLIENT_SECRET: 'r-secret',
      OAUTH_DISCORD_CLIENT_ID: 'd-id',
      OAUTH_DISCORD_CLIENT_SECRET: 'd-secret',
      OAUTH_X_CLIENT_ID: 'x-id',
      OAUTH_X_CLIENT_SECRET: 'x-secret',
    });
    expect(config.oauth).toEqual({
      google: { clientId: 'g-id', clientSecret: 'g-secret', issuer: 'https://accounts.google.com' },
      roblox: { clientId: 'r-id', clientSecret: 'r-secret', issuer: 'https://apis.roblox.com/oauth/' },
      discord: { clientId: 'd-id', clientSecret: 'd-secret', baseUrl: 'https://discord.com' },
      x: {
        clientId: 'x-id',
        clientSecret: 'x-secret',
        baseUrl: 'https://x.com',
        apiUrl: 'https://api.x.com',
      },
    });
    expect(Object.isFrozen(config.oauth)).toBe(true);
  });

  it('takes endpoint overrides: https anywhere, http only on this machine', () => {
    const config = loadConfig({
      OAUTH_X_CLIENT_ID: 'x-id',
      OAUTH_X_CLIENT_SECRET: 'x-secret',
      OAUTH_X_BASE_URL: 'http://127.0.0.1:4000/',
      OAUTH_X_API_URL: 'https://x-api.internal.example',
      OAUTH_GOOGLE_ISSUER: 'http://localhost:9999',
    });
    expect(config.oauth.x).toEqual({
      clientId: 'x-id',
      clientSecret: 'x-secret',
      baseUrl: 'http://127.0.0.1:4000',
      apiUrl: 'https://x-api.internal.example',
    });
    expect(config.oauth.google).toBeUndefined();
  });

  it.each([
    [
      { OAUTH_GOOGLE_CLIENT_ID: 'id' },
      'OAUTH_GOOGLE_CLIENT_SECRET must be set when OAUTH_GOOGLE_CLIENT_ID is',
    ],
    [
      { OAUTH_ROBLOX_CLIENT_SECRET: 'secret' },
      'OAUTH_ROBLOX_CLIENT_ID must be set when OAUTH_ROBLOX_CLIENT_SECRET is',
    ],
    [
      { OAUTH_DISCORD_CLIENT_ID: 'id', OAUTH_DISCORD_CLIENT_SECRET: ' ' },
      'OAUTH_DISCORD_CLIENT_SECRET must be set when OAUTH_DISCORD_CLIENT_ID is',
    ],
    [{ OAUTH_X_CLIENT_SECRET: 'secret' }, 'OAUTH_X_CLIENT_ID must be set when OAUTH_X_CLIENT_SECRET is'],
    [
      { OAUTH_GOOGLE_ISSUER: 'http://accounts.example.com' },
      'OAUTH_GOOGLE_ISSUER must use https: (http: only for localhost or 127.0.0.1)',
    ],
    [{ OAUTH_DISCORD_BASE_URL: 'discord' }, 'OAUTH_DISCORD_BASE_URL is not a valid URL (expected https://…)'],
    [
      { OAUTH_X_API_URL: 'ftp://127.0.0.1' },
      'OAUTH_X_API_URL must use https: (http: only for localhost or 127.0.0.1)',
    ],
  ])('refuses %o at start', (env, message) => {
    expect(configError(env)).toBe(message);
  });

  it('never puts a client secret in its messages', () => {
    expect(configError({ OAUTH_GOOGLE_CLIENT_SECRET: 'very-secret-value' })).not.toContain(
      'very-secret-value',
    );
  });
});

describe('the flow cookie', () => {
  const sealer = new FlowSealer('a-server-secret-of-enough-length-0123456789');
  const flow: FlowState = {
    provider: 'google',
    state: 'state-1',
    codeVerifier: 'verifier-1',
    nonce: 'nonce-1',
    returnTo: '/market',
    mode: 'signin',
    userId: undefined,
    expiresAt: 1_000_000,
  };

  it('opens what it sealed until it expires', () => {
    const sealed = sealer.seal(flow);
    expect(sealed).not.toContain('verifier');
    expect(sealer.open(sealed, 999_999)).toEqual(flow);
    expect(sealer.open(sealed, 1_000_000)).toBeUndefined();
  });

  it('refuses a cookie sealed under another secret or changed by one byte', () => {
    const sealed = sealer.seal(flow);
    expect(new FlowSealer('another-server-secret-0123456789abcdef').open(sealed, 0)).toBeUndefined();
    const bytes = Buffer.from(sealed, 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    expect(sealer.open(bytes.toString('base64url'), 0)).toBeUndefined();
    expect(sealer.open('', 0)).toBeUndefined();
    expect(sealer.open('not base64 at all!', 0)).toBeUndefined();
  });
});

describe('placeholder addresses', () => {
  it('are undeliverable (.invalid) and readable, with a random part when asked', () => {
    expect(placeholderEmail('roblox', '123456', false)).toBe('roblox-123456@users.noreply.invalid');
    expect(placeholderEmail('x', 'Weird Id/1', false)).toBe('x-weird_id_1@users.noreply.invalid');
    expect(placeholderEmail('x', '42', true)).toMatch(/^x-42-[0-9a-f]{8}@users\.noreply\.invalid$/);
  });
});
