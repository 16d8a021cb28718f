/** What each `oauth_error` code of a failed provider sign-in means, in words for the person. */
const MESSAGES: Record<string, string> = {
  oauth_state_invalid:
    'That sign-in took too long, or was started in another tab or browser. Please try again.',
  oauth_provider_error: 'The sign-in was cancelled or refused at the provider.',
  oauth_code_invalid: 'The provider’s sign-in code had expired or was already used. Please try again.',
  oauth_id_token_invalid: 'The provider’s answer did not pass our security checks. Please try again.',
  provider_email_unverified:
    'The provider has not verified your e-mail address. Verify it there, or sign in with your password and link the provider on your account page.',
  account_link_required:
    'An account with this e-mail address already exists. Sign in with your password, then link the provider on your account page.',
  identity_linked_elsewhere: 'That provider account is already linked to another account here.',
  provider_already_linked:
    'Your account is already linked to another account at that provider: unlink it first.',
  oauth_link_session_lost: 'Your session ended while linking. Sign in and try again.',
  provider_not_enabled: 'That sign-in provider is not available here.',
  provider_unavailable: 'The provider could not be reached. Try again in a moment.',
};

const FALLBACK = 'Signing in with the provider did not work. Please try again.';

/** The message for `?oauth_error=<code>`, or null when there is none. */
export function oauthErrorMessage(code: string | null): string | null {
  if (!code) return null;
  return MESSAGES[code] ?? FALLBACK;
}

/** The start URL of a provider sign-in that comes back to `next` (a path on this site). */
export function providerStartUrl(provider: string, next: string): string {
  return `/api/auth/oauth/${encodeURIComponent(provider)}/start?return_to=${encodeURIComponent(next)}`;
}
