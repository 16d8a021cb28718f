/** Where to go after signing in: a same-site path from `next`, or the market. */
export function safeNext(next: string | null): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/market';
  return next;
}

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

/** What is wrong with a new password and its confirmation, or null when they can be sent. */
export function newPasswordProblem(password: string, confirm: string): string | null {
  if (password.length < PASSWORD_MIN) return `The new password needs at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `The new password can have at most ${PASSWORD_MAX} characters.`;
  if (password !== confirm) return 'The two new passwords differ.';
  return null;
}
