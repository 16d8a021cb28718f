/** Where a page of a server-paged list sits: "26–50 of 120", and whether there is a next page. */
export function pageRange(
  offset: number,
  shown: number,
  total: number,
): { first: number; last: number; hasNext: boolean } | null {
  if (shown === 0) return null;
  return { first: offset + 1, last: offset + shown, hasNext: offset + shown < total };
}
