import { describe, expect, it } from 'vitest';
import { newPasswordProblem, safeNext } from './forms';

describe('newPasswordProblem', () => {
  it('accepts 10 to 128 characters typed twice the same', () => {
    expect(newPasswordProblem('correct horse', 'correct horse')).toBeNull();
    expect(newPasswordProblem('a'.repeat(128), 'a'.repeat(128))).toBeNull();
  });

  it('explains a short, a long and a mistyped password', () => {
    expect(newPasswordProblem('short', 'short')).toBe('The new password needs at least 10 characters.');
    expect(newPasswordProblem('a'.repeat(129), 'a'.repeat(129))).toBe(
      'The new password can have at most 128 characters.',
    );
    expect(newPasswordProblem('correct horse', 'correct house')).toBe('The two new passwords differ.');
  });
});

describe('safeNext', () => {
  it('keeps a same-site path with its query (an invitation link) and refuses other sites', () => {
    expect(safeNext('/team/accept?token=abc')).toBe('/team/accept?token=abc');
    expect(safeNext('//evil.test')).toBe('/market');
    expect(safeNext('https://evil.test')).toBe('/market');
    expect(safeNext(null)).toBe('/market');
  });
});
