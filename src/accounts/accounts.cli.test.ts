import { describe, expect, it } from 'vitest';
import { runSvc as run } from '../../test/helpers/cli.js';
import { migratedDataDir } from '../../test/helpers/db.js';

describe('svc user and svc keys', () => {
  it('create users, change plans and create keys', async () => {
    const DATA_DIR = await migratedDataDir('svc-cli-accounts-');
    const created = await run(
      [
        'user',
        'create',
        '--email',
        'Boss@Example.com',
        '--password',
        'a strong password',
        '--plan',
        'studio',
        '--admin',
      ],
      { DATA_DIR },
    );
    expect(created).toMatchObject({
      code: 0,
      out: [expect.stringMatching(/^created user \d+ boss@example\.com \(Studio, admin\)$/)],
    });
    const dup = await run(
      ['user', 'create', '--email', 'boss@example.com', '--password', 'a strong password'],
      { DATA_DIR },
    );
    expect(dup).toMatchObject({ code: 1, out: ['An account with this e-mail already exists.'] });

    const plan = await run(
      ['user', 'set-plan', '--email', 'boss@example.com', '--plan', 'BUILDER', '--status', 'trialing'],
      {
        DATA_DIR,
      },
    );
    expect(plan).toMatchObject({ code: 0, out: ['boss@example.com: Builder (trialing)'] });

    const key = await run(
      ['keys', 'create', '--user', 'boss@example.com', '--scopes', 'read,sdk:ingest', '--name', 'ci'],
      {
        DATA_DIR,
      },
    );
    expect(key.code).toBe(0);
    expect(key.out[0]).toMatch(
      /^created key \d+ \(read, sdk:ingest\) for boss@example\.com; the secret is shown only now:$/,
    );
    expect(key.out[1]).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
  });

  it('explain bad input with exit code 2 or 1', async () => {
    const DATA_DIR = await migratedDataDir('svc-cli-accounts-');
    expect(
      await run(['user', 'create', '--email', 'a@example.com', '--password', 'short'], { DATA_DIR }),
    ).toMatchObject({
      code: 2,
      err: expect.stringContaining('--password must be 10 to 128 characters'),
    });
    expect(
      await run(
        ['user', 'create', '--email', 'a@example.com', '--password', 'long enough pw', '--plan', 'gold'],
        { DATA_DIR },
      ),
    ).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        '--plan must be one of Explorer, Builder, Studio, Enterprise (got "gold")',
      ),
    });
    expect(await run(['user', 'delete'], { DATA_DIR })).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown subcommand "delete"'),
    });
    expect(
      await run(['keys', 'create', '--user', 'nobody@example.com', '--scopes', 'read'], { DATA_DIR }),
    ).toMatchObject({
      code: 1,
      out: ['no user with e-mail nobody@example.com'],
    });
    expect(
      await run(['keys', 'create', '--user', 'x@example.com', '--scopes', 'write'], { DATA_DIR }),
    ).toMatchObject({
      code: 2,
      err: expect.stringContaining('--scopes must list read, sdk:ingest, ingest:telemetry (got "write")'),
    });
  });
});
