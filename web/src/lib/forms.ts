/** Where to go after signing in: a same-site path from `next`, or the market. */
export function safeNext(next: string | null): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/market';
  return next;
}
