import { type TLiteral, type TUnion, Type } from 'typebox';

/** `t` or null. */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) =>
  Type.Union([t, Type.Null()]);

/** Every error body: `{detail, code}` (spec/DECISIONS.md §1), sometimes with a field or plan. */
export const ErrorResponse = Type.Object(
  {
    detail: Type.String({ description: 'A sentence a person can read.' }),
    code: Type.String({ description: 'Stable snake_case machine code (see DECISIONS §1).' }),
    field: Type.Optional(Type.String({ description: 'With 422: the offending field, e.g. `body.email`.' })),
    required_plan: Type.Optional(
      Type.String({ description: 'With 403 plan_upgrade_required: the plan needed.' }),
    ),
  },
  { $id: 'ErrorResponse', title: 'ErrorResponse', additionalProperties: false },
);

export const ErrorRef = Type.Ref('ErrorResponse');

/** Shared response entries for the error statuses most routes can return. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorRef> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorRef]));
}

/** Largest id any route accepts: ids travel as JSON numbers, so 2^53 − 1 (Roblox place and
 * universe ids stay far below it). Beyond it a PostgreSQL bigint would overflow (500). */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/** Every integer id a client sends (path, query or body): 1 to 2^53 − 1, else 422 validation_failed. */
export function Id(description: string) {
  return Type.Integer({ minimum: 1, maximum: MAX_ID, description });
}

/** `{id}` path parameters. */
export function IdParams(description: string) {
  return Type.Object({ id: Id(description) });
}

/** One of `values`, as a union of string literals: `anyOf` of `const`s in the JSON schema, and the
 * union of the values (not `string`) in the static type, for a list built elsewhere (PLANS). */
export function OneOf<const T extends readonly string[]>(
  values: T,
  options: { default?: T[number]; description?: string } = {},
): TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }> {
  // TypeBox types a mapped array as TLiteral<string>[]: the cast restores each literal.
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as never;
}
