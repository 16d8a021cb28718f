import { describe, expect, it } from 'vitest';
import { oauthErrorMessage, providerStartUrl } from './oauth-errors';

describe('provider sign-in on the web', () => {
  it('explains each error code, and any other code in general words', () => {
    expect(oauthErrorMessage(null)).toBeNull();
    expect(oauthErrorMessage('account_link_required')).toBe(
      'An account with this e-mail address already exists. Sign in with your password, then link the provider on your account page.',
    );
    expect(oauthErrorMessage('<script>')).toBe(
      'Signing in with the provider did not work. Please try again.',
    );
  });

  it('starts at the API with the page to come back to', () => {
    expect(providerStartUrl('roblox', '/games/1?x=1')).toBe(
      '/api/auth/oauth/roblox/start?return_to=%2Fgames%2F1%3Fx%3D1',
    );
  });
});
