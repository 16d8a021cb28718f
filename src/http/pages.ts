/**
 * Keyset pagination shared by every list endpoint: the `limit` and `cursor` query parameters, the
 * `next_cursor` and `limit_cap` response fields, and opaque cursors (base64url of the last row's
 * sort key, `|`-separated numbers).
 */
import { type Static, Type } from 'typebox';
import { errors } from '../errors.js';
import { Nullable } from './schemas.js';

/** `cursor`: the previous page's next_cursor. */
export const PageCursor = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 128,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'next_cursor of the previous page.',
  }),
);

/** The plans' caps on a list's `limit`, as the OpenAPI text states them. */
export const PLAN_CAPS_TEXT = 'Explorer 10, Builder 50, Studio and Enterprise 200';

/** `limit`: 1–`maximum`, default 20; `capText` says how it is clamped (the plans' caps by default). */
export function PageLimit(what: string, maximum = 200, capText = `the plan cap: ${PLAN_CAPS_TEXT}`) {
  return Type.Integer({
    minimum: 1,
    maximum,
    default: 20,
    description: `${what} per page (default 20). Clamped, not refused, above ${capText}.`,
  });
}

/** The response's `next_cursor`. */
export const NextCursor = Nullable(
  Type.String({ description: 'Pass as cursor for the next page; null at the end.' }),
);

/** The response's `limit_cap`. */
export const LimitCap = Type.Integer({ description: 'The largest limit this caller gets (its plan cap).' });

export type PageCursorT = Static<typeof PageCursor>;

/** A cursor for the row whose sort key is `parts`. */
export function encodeCursor(parts: readonly number[]): string {
  return Buffer.from(parts.join('|')).toString('base64url');
}

/**
 * The sort key inside `cursor` (undefined without one); a cursor this endpoint did not give out
 * (wrong shape or field count) is refused with 422 on `query.cursor`.
 */
export function decodeCursor(cursor: string | undefined, fields: number): number[] | undefined {
  if (cursor === undefined) return undefined;
  const parts = Buffer.from(cursor, 'base64url').toString().split('|').map(Number);
  if (parts.length !== fields || !parts.every(Number.isFinite)) {
    throw errors.validation(
      'query.cursor',
      'cursor is not one this endpoint gave out; start again without it.',
    );
  }
  return parts;
}

/** One page of `rows` fetched with limit + 1: the page and the cursor of its last row, if more follow. */
export function pageOf<R>(rows: R[], limit: number, key: (row: R) => readonly number[]) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next_cursor: rows.length > limit && last !== undefined ? encodeCursor(key(last)) : null };
}
