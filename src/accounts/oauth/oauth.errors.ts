/** Every way a third-party sign-in can fail, each with its own stable code (the web app shows them). */
import { AppError } from '../../errors.js';

export const oauthErrors = {
  providerNotEnabled: () =>
    new AppError(404, 'provider_not_enabled', 'This sign-in provider is unknown or not enabled here.'),
  stateInvalid: () =>
    new AppError(
      400,
      'oauth_state_invalid',
      'This sign-in attempt is unknown, expired or was started in another browser; start again.',
    ),
  /** `error` is the provider's code, already reduced to [a-z_]. */
  providerError: (provider: string, error: string) =>
    new AppError(
      400,
      'oauth_provider_error',
      error === 'access_denied'
        ? `The sign-in was cancelled or refused at ${provider}.`
        : `${provider} could not complete the sign-in (${error}).`,
    ),
  codeInvalid: (provider: string) =>
    new AppError(
      400,
      'oauth_code_invalid',
      `${provider} refused the authorization code (already used or expired); start again.`,
    ),
  idTokenInvalid: (provider: string) =>
    new AppError(
      400,
      'oauth_id_token_invalid',
      `The ID token from ${provider} failed its checks (signature, audience, expiry or nonce); start again.`,
    ),
  emailUnverified: (provider: string) =>
    new AppError(
      403,
      'provider_email_unverified',
      `${provider} has not verified your e-mail address: verify it there first, or sign in with your password and link ${provider} on your account page.`,
    ),
  linkRequired: (provider: string) =>
    new AppError(
      409,
      'account_link_required',
      `An account with this e-mail address exists, but its address is not verified: sign in with your password and link ${provider} on your account page.`,
    ),
  linkedElsewhere: (provider: string) =>
    new AppError(409, 'identity_linked_elsewhere', `This ${provider} account is linked to another account.`),
  alreadyLinked: (provider: string) =>
    new AppError(
      409,
      'provider_already_linked',
      `Your account is linked to another ${provider} account; unlink it first.`,
    ),
  notLinked: (provider: string) =>
    new AppError(404, 'identity_not_linked', `Your account has no linked ${provider} sign-in.`),
  lastSignInMethod: () =>
    new AppError(
      409,
      'last_sign_in_method',
      'This is the only way to sign in to your account: link another provider first.',
    ),
  linkSessionLost: () =>
    new AppError(
      401,
      'oauth_link_session_lost',
      'The session that started linking has ended; sign in and link again.',
      { headers: { 'WWW-Authenticate': 'Bearer' } },
    ),
  unavailable: (provider: string) =>
    new AppError(
      503,
      'provider_unavailable',
      `${provider} could not be reached or gave an unexpected answer; try again in a moment.`,
      { headers: { 'Retry-After': '30' } },
    ),
} as const;
