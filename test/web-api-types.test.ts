/**
 * The web app's API types (web/src/api/schema.d.ts) are generated from the OpenAPI document the
 * server serves; this fails while the committed file is stale (fix: npm run web:types).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiTypesSource, currentOpenApi, TYPES_FILE } from '../scripts/web-api-types.js';

describe('web API types', () => {
  it('match the OpenAPI document the server serves now', async () => {
    const fresh = await apiTypesSource(await currentOpenApi());
    const committed = readFileSync(TYPES_FILE, 'utf8');
    // One assertion on equality (a diff of a 470 KB file helps nobody); the message says what to do.
    expect(committed === fresh, 'web/src/api/schema.d.ts is stale: run `npm run web:types`').toBe(true);
  });
});
