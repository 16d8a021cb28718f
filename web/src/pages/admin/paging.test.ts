import { describe, expect, it } from 'vitest';
import { pageRange } from './paging';

describe('pageRange', () => {
  it('numbers the rows shown from one and says whether more follow', () => {
    expect(pageRange(0, 25, 60)).toEqual({ first: 1, last: 25, hasNext: true });
    expect(pageRange(25, 25, 50)).toEqual({ first: 26, last: 50, hasNext: false });
    expect(pageRange(50, 10, 60)).toEqual({ first: 51, last: 60, hasNext: false });
  });

  it('has no range for an empty page (past the end, or no match)', () => {
    expect(pageRange(75, 0, 60)).toBeNull();
    expect(pageRange(0, 0, 0)).toBeNull();
  });
});
