/**
 * OpenAPI conformance fuzz: walks every operation of /openapi.json, sends requests generated from
 * its own schemas (valid ones, and ones broken on purpose: wrong types, missing or extra fields,
 * hostile strings, ids beyond 64 bits, malformed JSON, wrong content types, oversized bodies) as
 * anonymous callers, users of every plan, an admin, API keys and a cookie session, and checks
 * every answer against the document: never a 5xx, every status documented, every body valid
 * against the documented schema, every error `{detail, code}`.
 *
 * Seeded and replayable: FUZZ_SEED=<n> npx vitest run test/conformance/openapi.fuzz.test.ts
 * (the seed is printed and quoted in every failure). FUZZ_RUNS sets requests per operation.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/clock.js';
import { backfill } from '../../src/market/backfill.js';
import { refreshViews } from '../../src/market/views.service.js';
import { PLANS, type PlanName } from '../../src/plans.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookieHeader, createUser, type LoggedIn, login } from '../helpers/auth.js';
import { ingestKey, sdkEvent } from '../helpers/ingest.js';
import { testMarket } from '../helpers/market.js';
import { csvUpload, multipart } from '../helpers/multipart.js';
import { CREATOR_HUB_EXPORT, realdataFile } from '../helpers/realdata.js';
import {
  type ArbitraryOptions,
  encodeSegment,
  type JsonSchema,
  NASTY_SEGMENTS,
  nastyValue,
  resolveRef,
  schemaArbitrary,
  withHints,
} from '../helpers/schema-arbitrary.js';

const NOW = new Date('2026-11-22T15:05:00Z');
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : 100;
/** Fuzz requests come from their own address, so failed-login throttles never block re-sign-ins. */
const FUZZ_IP = '203.0.113.9';
const BIG = 1_000_000_000;
/** Over every body limit (1 MiB by default, 10 MiB for Dev Lens uploads). */
const OVERSIZED = `{"x":"${'y'.repeat(11 * 1024 * 1024)}"}`;

const DEVLENS_CSV = readFileSync(realdataFile(CREATOR_HUB_EXPORT));

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}
interface MediaType {
  schema?: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

type PrincipalName =
  | 'anonymous'
  | PlanName
  | 'admin'
  | 'cookie'
  | 'cookie_no_csrf'
  | 'read_key'
  | 'ingest_key'
  | 'bad_bearer'
  | 'bad_key';
const PRINCIPALS: PrincipalName[] = [
  'anonymous',
  ...PLANS,
  'admin',
  'cookie',
  'cookie_no_csrf',
  'read_key',
  'ingest_key',
  'bad_bearer',
  'bad_key',
];

/** What to send, as generated (before credentials are attached). */
interface RequestPlan {
  kind: string;
  principal: PrincipalName;
  path: Record<string, string>;
  query: Record<string, string>;
  body?: { payload: string | Buffer; contentType?: string };
}

interface Sent {
  method: string;
  url: string;
  plan: RequestPlan;
  res: LightMyRequestResponse;
}

let t: TestApp;
let doc: Doc;
const sessions = new Map<PrincipalName, LoggedIn>();
const fuzzUsers = new Map<PrincipalName, { email: string; password: string; plan: PlanName; id: number }>();
const keys = { read: '', ingest: '' };
const hints: Record<string, unknown[]> = {};

beforeAll(async () => {
  const unlimited = Object.fromEntries(PLANS.map((p) => [p, { readRatePerMin: BIG, monthlySdkEvents: BIG }]));
  t = await buildTestApp({
    clock: fixedClock(NOW),
    platform: testMarket(),
    env: {
      ENTITLEMENTS: JSON.stringify({
        plans: unlimited,
        anonymousRatePerMin: BIG,
        authRatePerMin: BIG,
        apiKeyFailuresPerMin: BIG,
        ingestBurst: BIG,
        ingestPerSecond: BIG,
      }),
    },
  });
  const log = { info: () => {}, warn: () => {} };
  await backfill({ db: t.testDb.db, platform: testMarket(), log }, 35, NOW);
  await refreshViews(t.testDb.db, NOW, { force: true });

  for (const plan of PLANS) await addUser(plan, plan, false);
  await addUser('admin', 'Enterprise', true);
  await addUser('cookie', 'Studio', false);
  // Keys belong to a user the fuzz never signs in as, so no fuzzed DELETE /api/keys/{id} revokes them.
  keys.read = (await ingestKey(t, { plan: 'Studio', scopes: ['read'] })).key;
  keys.ingest = (await ingestKey(t, { plan: 'Studio', scopes: ['sdk:ingest'] })).key;

  const games = await t.testDb.db.query<{ place_id: number; universe_id: number }>(
    'SELECT place_id, universe_id FROM games ORDER BY ccu DESC NULLS LAST LIMIT 5',
  );
  hints.place_id = games.rows.map((g) => Number(g.place_id));
  hints.universe_id = games.rows.map((g) => Number(g.universe_id));
  hints.game_id = hints.universe_id;
  hints.api_key = [keys.ingest, keys.read, 'svc_live_not_a_real_key'];
  hints.events = [[sdkEvent(1)], [sdkEvent(2), sdkEvent(3, { type: 'no_such_type' })]];
  hints.url = ['https://93.184.215.14/hook', 'http://127.0.0.1:9/hook', 'ftp://93.184.215.14/x', 'not a url'];
  hints.genre = ['rpg', 'simulation', 'knitting'];
  hints.q = ['a', 'game', '  ', String(hints.place_id[0])];

  const res = await t.app.inject({ url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json() as Doc;
}, 180_000);

afterAll(async () => {
  await t?.close();
});

async function addUser(name: PrincipalName, plan: PlanName, isAdmin: boolean): Promise<void> {
  const u = await createUser(t, { plan, isAdmin });
  fuzzUsers.set(name, { email: u.email, password: u.password, plan, id: u.id });
  sessions.set(name, await login(t.app, u.email, u.password));
}

/** Logins, logouts, refreshes and plan changes end sessions: put every fuzz user back. */
async function restoreSessions(): Promise<void> {
  for (const [name, u] of fuzzUsers) {
    const current = await t.accounts.accounts.me(u.id);
    if (current.plan !== u.plan) await t.accounts.accounts.updatePlan(u.id, { plan: u.plan });
    const s = sessions.get(name)!;
    const me = await t.app.inject({
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${s.accessToken}` },
    });
    if (me.statusCode !== 200) sessions.set(name, await login(t.app, u.email, u.password));
  }
}

const SESSION_CHANGING = new Set([
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/refresh',
  'PATCH /api/admin/users/{id}',
]);

function credentials(principal: PrincipalName, method: string): Record<string, string> {
  switch (principal) {
    case 'anonymous':
      return {};
    case 'read_key':
      return { 'x-api-key': keys.read };
    case 'ingest_key':
      return { 'x-api-key': keys.ingest };
    case 'bad_bearer':
      return { authorization: 'Bearer not.a.jwt' };
    case 'bad_key':
      return { 'x-api-key': 'svc_live_0000000000000000' };
    case 'cookie':
    case 'cookie_no_csrf': {
      const s = sessions.get('cookie')!;
      const headers: Record<string, string> = { cookie: cookieHeader(s.cookies) };
      if (principal === 'cookie' && method !== 'GET') headers['x-csrf-token'] = s.cookies.svc_csrf;
      return headers;
    }
    default:
      return { authorization: `Bearer ${sessions.get(principal)!.accessToken}` };
  }
}

// ---- generation ---------------------------------------------------------------------------------

const MALFORMED_JSON = [
  '{',
  '{"a":',
  '[1,]',
  'nul',
  '{"a":1}}',
  "{'a':1}",
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '\u0000',
  '',
];
const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'foo',
  'text/csv',
];

function arbOptions(): ArbitraryOptions {
  return { components: doc.components.schemas, hints };
}

function pathParamsArb(params: Parameter[], broken: boolean): fc.Arbitrary<Record<string, string>> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const p of params) {
    const valid = withHints(p.name, schemaArbitrary(p.schema, arbOptions()), arbOptions()).map(encodeSegment);
    model[p.name] = broken ? fc.constantFrom(...NASTY_SEGMENTS) : valid;
  }
  return fc.record(model);
}

function queryArb(
  params: Parameter[],
  mode: 'valid' | 'broken' | 'missing' | 'extra',
): fc.Arbitrary<Record<string, string>> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  const required: string[] = [];
  for (const p of params) {
    if (p.required) required.push(p.name);
    model[p.name] = withHints(p.name, schemaArbitrary(p.schema, arbOptions()), arbOptions()).map((v) =>
      typeof v === 'string' ? v : JSON.stringify(v),
    );
  }
  const base = fc.record(model, { requiredKeys: required });
  if (params.length === 0 || mode === 'valid') return base;
  return fc
    .tuple(
      base,
      fc.constantFrom(...params.map((p) => p.name)),
      fc.constantFrom(...NASTY_SEGMENTS),
      nastyValue,
    )
    .map(([q, name, segment, value]) => {
      const out: Record<string, string> = { ...q };
      if (mode === 'missing') delete out[name];
      else if (mode === 'extra') out.unexpected_param = String(segment);
      else out[name] = decodeSafe(segment) ?? encodeSegment(value);
      return out;
    });
}

function decodeSafe(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function jsonBody(value: unknown) {
  return { payload: JSON.stringify(value) ?? 'null', contentType: 'application/json' };
}

/** Bodies for one operation: [kind, arbitrary] pairs. */
function bodyArbs(
  op: Operation,
  method: string,
  path: string,
): [string, fc.Arbitrary<RequestPlan['body'] | undefined>][] {
  const schema = op.requestBody?.content['application/json']?.schema;
  const takesBody = ['post', 'put', 'patch', 'delete'].includes(method);
  const out: [string, fc.Arbitrary<RequestPlan['body'] | undefined>][] = [];
  if (path === '/api/dev-lens/analyze') {
    out.push(['valid csv upload', fc.constant({ ...uploadBody(csvUpload(DEVLENS_CSV)) })]);
    out.push([
      'broken upload',
      fc.constantFrom(
        uploadBody(csvUpload('')),
        uploadBody(csvUpload('a,b\n1,2\n', { genre: 'rpg' })),
        uploadBody(csvUpload(Buffer.from([0, 1, 2, 255, 254, 0]))),
        uploadBody(multipart([{ name: 'genre', value: 'rpg' }])),
        uploadBody(multipart([{ name: 'other', filename: 'x.csv', content: 'a,b\n1,2\n' }])),
        { payload: '--nope\r\ngarbage', contentType: 'multipart/form-data; boundary=nope' },
        { payload: 'x', contentType: 'multipart/form-data' },
      ),
    ]);
  } else if (schema) {
    const resolved = resolveRef(schema, doc.components.schemas);
    const valid = schemaArbitrary(schema, arbOptions());
    out.push(['valid body', valid.map(jsonBody)]);
    out.push(['nasty body', nastyValue.map(jsonBody)]);
    const names = Object.keys(resolved.properties ?? {});
    if (names.length > 0) {
      out.push([
        'broken field',
        fc
          .tuple(valid, fc.constantFrom(...names), nastyValue)
          .map(([v, name, bad]) => jsonBody({ ...(v as object), [name]: bad })),
      ]);
      out.push([
        'missing or extra field',
        fc.tuple(valid, fc.constantFrom(...names), fc.boolean()).map(([v, name, drop]) => {
          const o = { ...(v as Record<string, unknown>) };
          if (drop) delete o[name];
          else o.not_a_field = 'x';
          return jsonBody(o);
        }),
      ]);
    }
  }
  if (takesBody) {
    out.push([
      'malformed json',
      fc.constantFrom(...MALFORMED_JSON).map((p) => ({ payload: p, contentType: 'application/json' })),
    ]);
    out.push([
      'wrong content type',
      fc.constantFrom(...WRONG_CONTENT_TYPES).map((ct) => ({ payload: 'a=1', contentType: ct })),
    ]);
  }
  return out;
}

function uploadBody(m: { payload: Buffer; headers: { 'content-type': string } }) {
  return { payload: m.payload, contentType: m.headers['content-type'] };
}

/** All the request shapes of one operation, weighted towards valid ones. */
function requestArb(path: string, method: string, op: Operation): fc.Arbitrary<RequestPlan> {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const principal = fc.constantFrom(...PRINCIPALS);
  const bodies = bodyArbs(op, method, path);
  const validBody: fc.Arbitrary<RequestPlan['body'] | undefined> =
    bodies.find(([k]) => k === 'valid body' || k === 'valid csv upload')?.[1] ?? fc.constant(undefined);
  const shape = (
    kind: string,
    p: fc.Arbitrary<Record<string, string>>,
    q: fc.Arbitrary<Record<string, string>>,
    b: fc.Arbitrary<RequestPlan['body'] | undefined>,
  ) =>
    fc.record({ kind: fc.constant(kind), principal, path: p, query: q, body: b }).map((r) => {
      const plan: RequestPlan = { kind: r.kind, principal: r.principal, path: r.path, query: r.query };
      if (r.body) plan.body = r.body;
      return plan;
    });
  const validPath = pathParamsArb(pathParams, false);
  const validQuery = queryArb(queryParams, 'valid');
  const shapes: { arbitrary: fc.Arbitrary<RequestPlan>; weight: number }[] = [
    { arbitrary: shape('valid', validPath, validQuery, validBody), weight: 6 },
  ];
  for (const [kind, b] of bodies) {
    if (kind.startsWith('valid')) continue;
    shapes.push({ arbitrary: shape(kind, validPath, validQuery, b), weight: 2 });
  }
  if (pathParams.length > 0) {
    shapes.push({
      arbitrary: shape('broken path param', pathParamsArb(pathParams, true), validQuery, validBody),
      weight: 2,
    });
  }
  if (queryParams.length > 0) {
    for (const mode of ['broken', 'missing', 'extra'] as const) {
      shapes.push({
        arbitrary: shape(`${mode} query`, validPath, queryArb(queryParams, mode), validBody),
        weight: 1,
      });
    }
  }
  return fc.oneof(...shapes);
}

// ---- checking -----------------------------------------------------------------------------------

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = formats as unknown as { default: (a: Ajv) => Ajv };
addFormats.default(ajv);
const validators = new Map<string, ValidateFunction>();
let componentsAdded = false;

/** `#/components/schemas/X` → `components/X`, registered with Ajv once. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$id') continue;
      if (k === '$ref' && typeof v === 'string') out.$ref = v.replace('#/components/schemas/', 'components/');
      else out[k] = rewriteRefs(v);
    }
    return out;
  }
  return node;
}

function validatorFor(key: string, schema: JsonSchema): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    if (!componentsAdded) {
      componentsAdded = true;
      for (const [name, s] of Object.entries(doc.components.schemas)) {
        ajv.addSchema(rewriteRefs(s) as object, `components/${name}`);
      }
    }
    v = ajv.compile(rewriteRefs(schema) as object);
    validators.set(key, v);
  }
  return v;
}

function describeSent(s: Sent): string {
  const body = s.plan.body
    ? ` body(${s.plan.body.contentType ?? '-'})=${String(s.plan.body.payload).slice(0, 200)}`
    : '';
  return `[seed=${SEED}] ${s.method} ${s.url.slice(0, 300)} as ${s.plan.principal} (${s.plan.kind})${body} → ${s.res.statusCode} ${s.res.body.slice(0, 300)}`;
}

/** Every way `s` breaks the document; empty when it conforms. */
function violations(pathKey: string, method: string, op: Operation, s: Sent): string[] {
  const status = s.res.statusCode;
  const out: string[] = [];
  if (status >= 500) out.push('5xx');
  const documented = op.responses[String(status)];
  if (!documented) {
    out.push(`status ${status} not documented (documented: ${Object.keys(op.responses).join(', ')})`);
    return out;
  }
  const schema = documented.content?.['application/json']?.schema;
  if (!schema) return out;
  // A response documented with several media types (JSON or a CSV download) may be any of them.
  const mediaType = String(s.res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  if (mediaType !== 'application/json' && documented.content?.[mediaType]) return out;
  if (!String(s.res.headers['content-type'] ?? '').startsWith('application/json')) {
    out.push(`content-type ${s.res.headers['content-type']} is not application/json`);
    return out;
  }
  let body: unknown;
  try {
    body = JSON.parse(s.res.body);
  } catch {
    out.push('body is not JSON');
    return out;
  }
  const validate = validatorFor(`${method} ${pathKey} ${status}`, schema);
  if (!validate(body)) out.push(`body does not match its schema: ${ajv.errorsText(validate.errors)}`);
  if (status >= 400) {
    const e = body as { detail?: unknown; code?: unknown };
    if (typeof e.detail !== 'string' || typeof e.code !== 'string')
      out.push('error body is not {detail, code}');
  }
  return out;
}

// ---- the walk -----------------------------------------------------------------------------------

async function send(pathKey: string, method: string, plan: RequestPlan): Promise<Sent> {
  const path = pathKey.replace(/\{([^}]+)\}/g, (_, name: string) => plan.path[name] ?? '');
  const search = new URLSearchParams(plan.query).toString();
  const url = search ? `${path}?${search}` : path;
  const headers: Record<string, string> = credentials(plan.principal, method.toUpperCase());
  if (plan.body?.contentType) headers['content-type'] = plan.body.contentType;
  const res = await t.app.inject({
    method: method.toUpperCase() as 'GET',
    url,
    headers,
    remoteAddress: FUZZ_IP,
    ...(plan.body ? { payload: plan.body.payload } : {}),
  });
  return { method: method.toUpperCase(), url, plan, res };
}

describe('OpenAPI conformance fuzz', () => {
  it('answers every generated request with a documented status and body, never a 5xx', async () => {
    console.log(`openapi fuzz seed=${SEED} (replay: FUZZ_SEED=${SEED}), ${RUNS} requests per operation`);
    const failures: string[] = [];
    const byStatus = new Map<number, number>();
    let operations = 0;
    let requests = 0;
    const entries = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item).map(([m, op]) => [p, m, op] as const),
    );
    for (const [index, [pathKey, method, op]] of entries.entries()) {
      operations += 1;
      const plans = fc.sample(requestArb(pathKey, method, op), { seed: SEED + index, numRuns: RUNS });
      // One oversized body per operation that parses one (over the 1 MiB default limit).
      if (['post', 'put', 'patch', 'delete'].includes(method)) {
        plans.push({
          kind: 'oversized body',
          principal: 'Enterprise',
          path: plans[0]!.path,
          query: plans[0]!.query,
          body: { payload: OVERSIZED, contentType: 'application/json' },
        });
      }
      for (const plan of plans) {
        const sent = await send(pathKey, method, plan);
        requests += 1;
        byStatus.set(sent.res.statusCode, (byStatus.get(sent.res.statusCode) ?? 0) + 1);
        const found = violations(pathKey, method, op, sent);
        for (const v of found) failures.push(`${v}: ${describeSent(sent)}`);
        if (SESSION_CHANGING.has(`${sent.method} ${pathKey}`) && sent.res.statusCode < 300)
          await restoreSessions();
      }
    }
    const statuses = [...byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
    console.log(
      `openapi fuzz seed=${SEED}: ${operations} operations, ${requests} requests; by status ${statuses.join(' ')}`,
    );
    expect(failures.slice(0, 40), `${failures.length} violations (seed=${SEED})`).toEqual([]);
  }, 180_000);
});
