import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, cookieHeader, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { csvUpload, multipart } from '../../test/helpers/multipart.js';
import { CREATOR_HUB_EXPORT, realdataFile } from '../../test/helpers/realdata.js';
import { advise } from './advice.js';
import { analyseCsv } from './analysis.js';
import { onlyAnalysisNumbers } from './devlens.service.js';

const REAL_EXPORT = readFileSync(realdataFile(CREATOR_HUB_EXPORT));
const URL_ANALYZE = '/api/dev-lens/analyze';
const LABEL = /^[+-]\d+\.\d%$/;

let t: TestApp;
let studio: LoggedIn;

beforeAll(async () => {
  t = await buildTestApp();
  studio = await signedIn(t, { plan: 'Studio' });
});
afterAll(async () => t.close());

function upload(
  body: ReturnType<typeof multipart>,
  headers: Record<string, string> = bearer(studio),
  query = '',
) {
  return t.app.inject({
    method: 'POST',
    url: `${URL_ANALYZE}${query}`,
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
}

/** Every string anywhere in a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('POST /api/dev-lens/analyze with the real Creator Hub export', () => {
  it('answers the engagement analysis with benchmarks, patterns, advice and a traceable narrative', async () => {
    const res = await upload(csvUpload(REAL_EXPORT, { filename: 'engagement.csv' }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.file_type).toBe('engagement');
    expect(body.metrics.dau_avg).toBe(406.3667);
    expect(body.metrics.dau_trend_pct_per_week).toBe(0.0472);
    expect(body.metrics.stickiness).toBeNull();
    expect(body.benchmarks).toEqual({ dau_vs_genre: '-22.4%' });
    expect(body.benchmark_source).toEqual({ genre: 'all', from_file: true });
    expect(body.coverage).toEqual({
      rows: 180,
      days: 90,
      missing_days: 0,
      first_day: '2024-02-23',
      last_day: '2024-05-22',
    });
    expect(body.patterns[0]).toBe(
      'Daily active users on weekends run 39.5% above weekdays (Welch t = 6.08, p < 0.001).',
    );
    expect(body.recommendations.length).toBeGreaterThan(0);
    expect(body.recommendations).toContain(
      'Average DAU is 406.4 against 523.7 for the benchmark in your export (-22.4%): grow reach (thumbnail and icon tests, sponsored placements, a shareable moment in play).',
    );
    expect(body.ai_analysis).toContain(
      'covers 90 days, 2024-02-23 to 2024-05-22 (180 rows), with no missing days',
    );
    // The narrative is the advice layer's, whose numbers advice.test.ts traces back to the analysis.
    const analysis = await analyseCsv(REAL_EXPORT, {});
    expect(body.ai_analysis).toBe(advise(analysis).ai_analysis);
    expect(onlyAnalysisNumbers(body.ai_analysis, analysis)).toBe(true);
    expect(body.report_id).toBeUndefined();
  });

  it('takes a genre field sent before the file', async () => {
    const res = await upload(csvUpload(REAL_EXPORT, { genre: 'simulator' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().benchmark_source.genre).toBe('simulation');
  });

  it('takes a genre sent after the file (curl -F file=@… -F genre=…), and refuses an unknown genre', async () => {
    const late = multipart([
      { name: 'file', filename: 'a.csv', content: REAL_EXPORT },
      { name: 'genre', value: 'rpg' },
    ]);
    const res = await upload(late);
    expect(res.statusCode).toBe(200);
    const early = await upload(csvUpload(REAL_EXPORT, { genre: 'rpg' }));
    expect(res.json()).toEqual(early.json());
    expect(res.json().benchmark_source.genre).toBe('rpg');
    const unknown = await upload(csvUpload(REAL_EXPORT, { genre: 'knitting' }));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ code: 'validation_failed', field: 'body.genre' });
  });

  it('never logs the file contents', async () => {
    const marker = 'Breakdown,Date,Daily Active Users';
    await upload(csvUpload(REAL_EXPORT));
    expect(t.logs.text).not.toContain(marker);
    expect(t.logs.text).not.toContain('2024-02-23T00:00:00.000Z,264');
  });
});

describe('what the upload must look like', () => {
  it('refuses a file over 10 MiB with 413 while it streams', async () => {
    const big = Buffer.alloc(11 * 1024 * 1024, 'Total,2024-02-23T00:00:00.000Z,264\n');
    const head = Buffer.from('Breakdown,Date,Daily Active Users\n');
    const res = await upload(csvUpload(Buffer.concat([head, big])));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'payload_too_large' });
    expect(res.json().detail).toContain('10 MiB');
  });

  it('accepts a file of exactly 10 MiB', async () => {
    const head = 'Breakdown,Date,Daily Active Users\n';
    const row = 'Total,2024-02-23T00:00:00.000Z,264\n';
    const rows = Math.floor((10 * 1024 * 1024 - head.length) / row.length);
    const pad = 10 * 1024 * 1024 - head.length - rows * row.length;
    const file = Buffer.from(head + row.repeat(rows) + '\n'.repeat(pad));
    expect(file.length).toBe(10 * 1024 * 1024);
    const res = await upload(csvUpload(file));
    expect(res.statusCode).toBe(200);
    expect(res.json().coverage.days).toBe(1);
  });

  it.each([
    ['an empty file', '', 'empty_file'],
    [
      'a binary file',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
      'invalid_csv',
    ],
    ['an unknown layout', 'name,colour\nrose,red\n', 'unsupported_file'],
  ])('refuses %s with 422', async (_name, content, code) => {
    const res = await upload(csvUpload(content));
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe(code);
  });

  it('names the field when the file comes in another field, is missing, or comes twice', async () => {
    const wrong = await upload(multipart([{ name: 'upload', filename: 'a.csv', content: REAL_EXPORT }]));
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ code: 'validation_failed', field: 'body.file' });
    expect(wrong.json().detail).toContain('"upload"');

    const none = await upload(multipart([{ name: 'genre', value: 'rpg' }]));
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ code: 'validation_failed', field: 'body.file' });

    const two = await upload(
      multipart([
        { name: 'file', filename: 'a.csv', content: REAL_EXPORT },
        { name: 'file', filename: 'b.csv', content: REAL_EXPORT },
      ]),
    );
    expect(two.statusCode).toBe(422);
    expect(two.json()).toMatchObject({ code: 'validation_failed', field: 'body.file' });
  });

  it('refuses a truncated multipart body with 400 bad_request, wherever it is cut', async () => {
    const body = csvUpload(REAL_EXPORT, { genre: 'rpg' });
    const whole = body.payload;
    const fileStart = whole.indexOf('Content-Type: text/csv\r\n\r\n') + 26;
    const closing = whole.lastIndexOf(Buffer.from('\r\n--'));
    const cuts = {
      'inside the file': whole.subarray(0, fileStart + 500),
      'just before the end of the file': whole.subarray(0, closing - 1),
      'with the closing boundary missing': whole.subarray(0, closing + 2),
      'inside the file part’s headers': whole.subarray(0, fileStart - 30),
    };
    for (const [where, payload] of Object.entries(cuts)) {
      const res = await upload({ payload, headers: body.headers });
      expect({ where, status: res.statusCode, body: res.json() }).toEqual({
        where,
        status: 400,
        body: {
          code: 'bad_request',
          detail:
            'The multipart/form-data body is malformed or cut off (a part or the closing boundary is missing); send the whole form again.',
        },
      });
    }
    expect(t.logs.text).not.toContain('Unexpected end of multipart data');
  });

  it('refuses a body that is not multipart with 415', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: URL_ANALYZE,
      payload: { file: 'x' },
      headers: bearer(studio),
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBe('unsupported_media_type');
    const bare = await t.app.inject({ method: 'POST', url: URL_ANALYZE, headers: bearer(studio) });
    expect(bare.statusCode).toBe(415);
  });

  it('keeps refusing multipart on other JSON routes', async () => {
    const body = csvUpload('a');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/alerts',
      payload: body.payload,
      headers: { ...bearer(studio), ...body.headers },
    });
    expect(res.statusCode).toBe(415);
  });
});

describe('who may use Dev Lens', () => {
  it.each(['Explorer', 'Builder'] as const)(
    'refuses the %s plan with plan_upgrade_required',
    async (plan) => {
      const user = await signedIn(t, { plan });
      const res = await upload(csvUpload(REAL_EXPORT), bearer(user));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'plan_upgrade_required', required_plan: 'Studio' });
    },
  );

  it('lets Enterprise in', async () => {
    const user = await signedIn(t, { plan: 'Enterprise' });
    expect((await upload(csvUpload(REAL_EXPORT), bearer(user))).statusCode).toBe(200);
  });

  it('refuses API keys, anonymous callers and cookie callers without the CSRF header', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(studio),
      payload: { name: 'read', scopes: ['read'] },
    });
    const byKey = await upload(csvUpload(REAL_EXPORT), {
      'x-api-key': (created.json() as { key: string }).key,
    });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().code).toBe('api_key_read_only');

    const anonymous = await upload(csvUpload(REAL_EXPORT), {});
    expect(anonymous.statusCode).toBe(401);

    const cookie = cookieHeader({ svc_access: studio.cookies.svc_access, svc_csrf: studio.cookies.svc_csrf });
    const noCsrf = await upload(csvUpload(REAL_EXPORT), { cookie });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().code).toBe('csrf_invalid');
    const withCsrf = await upload(csvUpload(REAL_EXPORT), {
      cookie,
      'x-csrf-token': studio.cookies.svc_csrf,
    });
    expect(withCsrf.statusCode).toBe(200);
  });
});

describe('saved reports', () => {
  it('stores a report only with ?save=true and lists it to its owner alone, newest first', async () => {
    const owner = await signedIn(t, { plan: 'Studio' });
    const list = async (who: LoggedIn) =>
      (await t.app.inject({ url: '/api/dev-lens/reports', headers: bearer(who) })).json().reports;

    expect((await upload(csvUpload(REAL_EXPORT), bearer(owner))).statusCode).toBe(200);
    expect(await list(owner)).toEqual([]);

    const first = (await upload(csvUpload(REAL_EXPORT), bearer(owner), '?save=true')).json();
    const second = (
      await upload(csvUpload(REAL_EXPORT, { genre: 'rpg' }), bearer(owner), '?save=true')
    ).json();
    expect(first.report_id).toEqual(expect.any(Number));
    expect(second.report_id).toBeGreaterThan(first.report_id);

    const reports = await list(owner);
    expect(reports.map((r: { id: number }) => r.id)).toEqual([second.report_id, first.report_id]);
    expect(reports[0]).toMatchObject({ file_type: 'engagement', genre: 'rpg' });
    expect(reports[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const { report_id: _id, ...answered } = second;
    expect(reports[0].result).toEqual(answered);

    const other = await signedIn(t, { plan: 'Studio' });
    expect(await list(other)).toEqual([]);
  });

  it('refuses the list to lower plans and API keys', async () => {
    const builder = await signedIn(t, { plan: 'Builder' });
    const res = await t.app.inject({ url: '/api/dev-lens/reports', headers: bearer(builder) });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('plan_upgrade_required');
  });
});

describe('formula-injection guard', () => {
  it('never echoes a cell that starts like a formula', async () => {
    const funnel = [
      'Step,Users',
      '"=HYPERLINK(""http://evil.example"",""click"")",1000',
      '@SUM(A1:A2),900',
      '+cmd|calc,200',
      '-2+3,150',
    ].join('\n');
    const res = await upload(csvUpload(funnel));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.file_type).toBe('funnel');
    for (const s of strings(body)) {
      if (LABEL.test(s)) continue;
      expect(s).not.toMatch(/^[=+\-@]/);
    }
    for (const v of Object.values(body.benchmarks)) expect(v).toMatch(LABEL);
    expect(JSON.stringify(body)).not.toMatch(/"=HYPERLINK/);
    // The worst step is echoed in a pattern, escaped the way spreadsheets read as text.
    expect(body.patterns.join(' ')).toContain(`"'+cmd|calc"`);
  });
});

describe('OpenAPI', () => {
  it('documents the multipart body, the result keys per type and every error', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json?prefix=/api/dev-lens' })).json();
    const op = doc.paths['/api/dev-lens/analyze'].post;
    expect(op.tags).toEqual(['dev lens']);
    expect(Object.keys(op.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    const result = doc.components.schemas.DevLensResult;
    expect(result.properties.metrics.description).toContain('`retention`: `d1_retention`, `d7_retention`');
    expect(result.properties.benchmarks.description).toContain('"+12.5%"');
  });
});
