/**
 * sdk/js/src/events.gen.ts is generated from the server's TypeBox schemas; this fails while the
 * committed file is stale (fix: npm run sdk:types).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sdkTypesSource, TYPES_FILE } from '../../../scripts/sdk-types.js';

describe('SDK wire types', () => {
  it('match the server’s ingest, event and assignment schemas now', () => {
    const committed = readFileSync(TYPES_FILE, 'utf8');
    expect(committed === sdkTypesSource(), 'sdk/js/src/events.gen.ts is stale: run `npm run sdk:types`').toBe(
      true,
    );
  });
});
