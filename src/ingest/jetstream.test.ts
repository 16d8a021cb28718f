import { randomBytes } from 'node:crypto';
import { AckPolicy, connect } from 'nats';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { migratedDb, type TestDb, testEngines } from '../../test/helpers/db.js';
import { eventRow, ingestKey, postEvents, sdkEvents, storedEvents } from '../../test/helpers/ingest.js';
import { systemClock } from '../clock.js';
import { prepare, toRows } from './batch.js';
import { type EventRow, eventsCopyText, insertClaims, rollupKeys } from './ingest.repo.js';
import {
  type BatchMessage,
  decodeMessage,
  encodeMessage,
  encodeRaw,
  JetStreamQueue,
  keyOffset,
  packRows,
} from './jetstream.js';
import { Partitions } from './partitions.js';
import { validateBatch } from './validate.js';
import { IngestWriter } from './writer.js';

const NATS_URL = process.env.NATS_URL;

async function withJsm<T>(
  fn: (jsm: Awaited<ReturnType<Awaited<ReturnType<typeof connect>>['jetstreamManager']>>) => Promise<T>,
) {
  const nc = await connect({ servers: NATS_URL });
  try {
    return await fn(await nc.jetstreamManager());
  } finally {
    await nc.close();
  }
}

/** A decoded message with its COPY pieces as one text. */
function readable(message: ReturnType<typeof decodeMessage>) {
  if ('malformed' in message) return message;
  const text = message.copy.map((p) => (typeof p === 'string' ? p : new TextDecoder().decode(p))).join('');
  return { ...message, copy: text };
}

describe('JetStream ingest messages', () => {
  const rows = [
    eventRow(1, { payload: { note: 'tab\there, back\\slash' } }),
    eventRow(2, { ts: '2026-11-24T01:00:00.000Z' }),
  ];

  it('carry a head line (claim, count, rollup keys) and the rows as COPY text', () => {
    const wire = encodeMessage(42, rows);
    const text = new TextDecoder().decode(wire);
    const [head, ...lines] = text.split('\n');
    expect(JSON.parse(head!)).toEqual({
      v: 1,
      claim: 42,
      events: 2,
      inbox: [
        [1, 'platform_1', 'g', '2026-11-23', '2026-11-23T10:00:00.000Z', 7],
        [1, 'platform_1', 'g', '2026-11-24', '2026-11-23T10:00:00.000Z', 7],
      ],
    });
    expect(lines.join('\n')).toBe(eventsCopyText(rows));
    const decoded = decodeMessage(wire) as BatchMessage;
    expect(readable(decoded)).toEqual({
      claim: 42,
      events: 2,
      inbox: JSON.parse(head!).inbox,
      copy: eventsCopyText(rows),
    });
    // The rows are the message's own bytes, handed to COPY as they came.
    expect(decoded.copy).toHaveLength(1);
    expect((decoded.copy[0] as Uint8Array).buffer).toBe(wire.buffer);
  });

  it.each([
    ['no head line', 'just text'],
    ['the head line is not JSON', '{nope\n'],
    ['unknown version 3', '{"v":3,"claim":1,"events":0,"inbox":[]}\n'],
    ['no claim id', '{"v":1,"claim":0,"events":0,"inbox":[]}\n'],
    ['no event count', '{"v":1,"claim":1,"inbox":[]}\n'],
    ['bad rollup keys', '{"v":1,"claim":1,"events":0,"inbox":[[1,"p"]]}\n'],
    ['2 rows for 1 events', '{"v":1,"claim":1,"events":1,"inbox":[]}\na\nb\n'],
    ['1 rows for 1 events', '{"v":1,"claim":1,"events":1,"inbox":[]}\na\nb'],
  ])('refuse a message with %s', (reason, text) => {
    expect(decodeMessage(new TextEncoder().encode(text))).toEqual({ malformed: reason });
  });

  it('refuse a message whose rows are not UTF-8 (COPY would fail the whole write)', () => {
    const head = new TextEncoder().encode('{"v":1,"claim":1,"events":1,"inbox":[]}\n');
    const data = Buffer.concat([head, Buffer.from([0x61, 0xff, 0xfe, 0x0a])]);
    expect(decodeMessage(data)).toEqual({ malformed: 'the rows are not UTF-8' });
  });

  it('split a batch too large for the server into messages that each fit, every row once', () => {
    const many = Array.from({ length: 40 }, (_, i) => eventRow(i + 1, { payload: { pad: 'x'.repeat(200) } }));
    let next = 100;
    const packed = packRows(many, 3_000, () => next++);
    expect(packed.length).toBeGreaterThan(3);
    for (const p of packed) expect(p.data.byteLength).toBeLessThanOrEqual(3_000);
    expect(new Set(packed.map((p) => p.claim)).size).toBe(packed.length);
    // Each part is its own batch for the rollups (its claim id), the rows otherwise unchanged.
    const parts = packed.map(
      (p) => readable(decodeMessage(p.data)) as { copy: string; inbox: BatchMessage['inbox'] },
    );
    const relabelled = packed.flatMap((p, i) =>
      many
        .slice(
          packed.slice(0, i).reduce((n, q) => n + q.events, 0),
          packed.slice(0, i + 1).reduce((n, q) => n + q.events, 0),
        )
        .map((r) => ({ ...r, batch: p.claim })),
    );
    expect(parts.map((m) => m.copy).join('')).toBe(eventsCopyText(relabelled));
    expect(parts.map((m) => m.inbox.map((k) => k[5]))).toEqual(packed.map((p) => [p.claim]));
    expect(packed.reduce((n, p) => n + p.events, 0)).toBe(40);
    const whole = packRows(many, 1_000_000, () => 7);
    expect(whole).toHaveLength(1);
    expect((readable(decodeMessage(whole[0]!.data)) as { copy: string }).copy).toBe(eventsCopyText(many));
  });
});

describe('JetStream ingest messages of version 2 (the body as received)', () => {
  const SECRET = 'svc_ingest_0123456789abcdef';
  const receivedAt = new Date('2026-11-23T12:00:00.000Z');
  const ctx = { teamId: 3, keyId: 9, sdkVersion: 'lua-1.2.0', receivedAt };
  const encode = (text: string) => new TextEncoder().encode(text);

  /** The batch as the request has it: its body, the accepted candidates and the cached countries. */
  function received(body: string, countries: Map<string, string> = new Map()) {
    const events = (JSON.parse(body) as { events: unknown[] }).events;
    const accepted = prepare(validateBatch(events), receivedAt).candidates;
    return { body: { bytes: [encode(body)], secret: SECRET }, accepted, countries, ctx };
  }

  it('give the writer the very rows the request would have stored, with the key blanked', () => {
    const events: unknown[] = sdkEvents(1, 6);
    events[2] = { type: 'nonsense' }; // refused by validation: not taken
    (events[4] as Record<string, unknown>).ts = undefined; // no ts: the receipt time
    const body = JSON.stringify({ api_key: SECRET, events });
    const countries = new Map([['player_2', 'DE']]);
    const batch = received(body, countries);
    expect(batch.accepted.map((c) => c.index)).toEqual([0, 1, 3, 4, 5]);
    const data = encodeRaw(77, batch, 1_000_000)!;
    const text = new TextDecoder().decode(data);
    expect(text).not.toContain(SECRET);
    expect(text).toContain(`"api_key":"${'*'.repeat(SECRET.length)}"`);
    const head = JSON.parse(text.slice(0, text.indexOf('\n')));
    expect(head).toEqual({
      v: 2,
      claim: 77,
      events: 5,
      team: 3,
      key: 9,
      sdk: 'lua-1.2.0',
      at: '2026-11-23T12:00:00.000Z',
      take: [
        [0, 1],
        [3, 5],
      ],
      countries: { player_2: 'DE' },
    });
    const rows = toRows(batch.accepted, countries, ctx, 77);
    expect(readable(decodeMessage(data))).toEqual({
      claim: 77,
      events: 5,
      inbox: rollupKeys(rows),
      copy: eventsCopyText(rows),
    });
  });

  it('are the same made from the body in chunks, the key blanked where it straddles two', () => {
    const body = JSON.stringify({ api_key: SECRET, events: sdkEvents(1, 4) });
    const whole = received(body);
    const bytes = encode(body);
    const cut = body.indexOf(SECRET) + 5;
    const chunked = {
      ...whole,
      body: {
        ...whole.body,
        bytes: [bytes.subarray(0, cut), bytes.subarray(cut, cut + 1), bytes.subarray(cut + 1)],
      },
    };
    const data = encodeRaw(5, chunked, 1_000_000)!;
    expect(Buffer.from(data).equals(Buffer.from(encodeRaw(5, whole, 1_000_000)!))).toBe(true);
    expect(new TextDecoder().decode(data)).toContain(`"api_key":"${'*'.repeat(SECRET.length)}"`);
    // The request's chunks are left as they were.
    expect(Buffer.concat(chunked.body.bytes).toString()).toBe(body);
  });

  it('are not made when the key cannot be found to blank, or the message would be too large', () => {
    const events = sdkEvents(1, 2);
    const plain = JSON.stringify({ api_key: SECRET, events });
    expect(encodeRaw(1, received(plain), 1_000_000)).not.toBeNull();
    expect(encodeRaw(1, received(plain), plain.length)).toBeNull();
    // Escaped, so its bytes are not the key's.
    const escaped = plain.replace(SECRET, `\\u0073${SECRET.slice(1)}`);
    expect(JSON.parse(escaped).api_key).toBe(SECRET);
    expect(encodeRaw(1, received(escaped), 1_000_000)).toBeNull();
    // The key's text also in an event: blanking could change the event.
    const twice = JSON.stringify({ api_key: SECRET, events: [{ ...events[0], note: SECRET }] });
    expect(encodeRaw(1, received(twice), 1_000_000)).toBeNull();
  });

  it.each([
    ['{"api_key":"K","events":[]}', 12],
    ['{ "api_key" :\t "K" , "events":[]}', 16],
    ['{"events":[],"api_key":"K"}', 24],
    ['{"api_key":"xK","events":[]}', -1],
    ['{"other_key":"K","events":[]}', -1],
    ['{"api_key":["K"],"events":[]}', -1],
    ['K', -1],
  ])('find the key in %s at %i', (body, at) => {
    expect(keyOffset(encode(body), 'K')).toBe(at);
  });

  it.each([
    [
      'no team or key',
      '{"v":2,"claim":1,"events":0,"key":1,"sdk":null,"at":"2026-11-23T12:00:00Z","take":[],"countries":{}}\n{"events":[]}',
    ],
    [
      'bad receipt time',
      '{"v":2,"claim":1,"events":0,"team":1,"key":1,"sdk":null,"at":"never","take":[],"countries":{}}\n{"events":[]}',
    ],
    [
      'bad event ranges',
      '{"v":2,"claim":1,"events":0,"team":1,"key":1,"sdk":null,"at":"2026-11-23T12:00:00Z","take":[[2,1]],"countries":{}}\n{"events":[]}',
    ],
    [
      'the body is not JSON',
      '{"v":2,"claim":1,"events":0,"team":1,"key":1,"sdk":null,"at":"2026-11-23T12:00:00Z","take":[],"countries":{}}\n{"events":',
    ],
    [
      'no event 0 in the body',
      '{"v":2,"claim":1,"events":1,"team":1,"key":1,"sdk":null,"at":"2026-11-23T12:00:00Z","take":[[0,0]],"countries":{}}\n{"events":[]}',
    ],
    [
      'event 0 does not validate: too_short',
      '{"v":2,"claim":1,"events":1,"team":1,"key":1,"sdk":null,"at":"2026-11-23T12:00:00Z","take":[[0,0]],"countries":{}}\n{"events":[{"type":"nope","event_id":"e","player_id":"p","session_id":"s"}]}',
    ],
  ])('refuse a version 2 message with %s', (reason, text) => {
    expect(decodeMessage(encode(text))).toEqual({ malformed: reason });
  });
});

describe.skipIf(!NATS_URL).each(testEngines())('JetStream ingest queue (%s)', (engine) => {
  const stream = `SVC_INGEST_T${randomBytes(4).toString('hex').toUpperCase()}`;
  let queue: JetStreamQueue;
  let t: TestDb;
  let writer: IngestWriter;
  const poison: string[] = [];
  const circuit: boolean[] = [];

  beforeAll(async () => {
    queue = await JetStreamQueue.connect({
      url: NATS_URL!,
      stream,
      ackWaitMs: 2_000,
      probeMs: 100,
      onPoison: (reason) => poison.push(reason),
      onCircuit: (open) => circuit.push(open),
    });
    t = await migratedDb(engine);
    writer = new IngestWriter({ db: t.db, clock: systemClock, queue });
    await new Partitions().ensure(t.db, ['2026-11-23T09:00:00.000Z']);
  });
  afterAll(async () => {
    await queue.close();
    await t.dispose();
    await withJsm((jsm) => jsm.streams.delete(stream)).catch(() => {});
  });
  beforeEach(async () => {
    await t.db.exec('DELETE FROM events; DELETE FROM sdk_rollup_inbox');
  });

  const stored = async () =>
    (await t.db.query<{ event_id: string }>('SELECT event_id FROM events ORDER BY event_id')).rows.map(
      (r) => r.event_id,
    );
  const claims = async () => (await t.db.query('SELECT id FROM ingest_claims')).rowCount;

  /** What the request does for sink `stream`: claims, publish, then commit or roll back. */
  async function request(rows: EventRow[], outcome: 'commit' | 'rollback'): Promise<void> {
    await t.db
      .transaction(async (tx) => {
        const packed = queue.pack(rows);
        await insertClaims(
          tx,
          packed.map((p) => ({ id: p.claim, events: p.events })),
          new Date(),
        );
        await queue.send(packed);
        if (outcome === 'rollback') throw new Error('the request died before its commit');
      })
      .catch((err: Error) => {
        if (outcome === 'commit') throw err;
      });
  }

  it('stores a committed batch once, with its rollup keys, and drops one whose request rolled back', async () => {
    await request([eventRow(1, { batch: 1 }), eventRow(2, { batch: 1 })], 'commit');
    await request([eventRow(3, { batch: 3 })], 'rollback');
    await request([eventRow(4, { batch: 4 })], 'commit');
    expect(await queue.refreshDepth()).toBe(3);
    expect(await claims()).toBe(2);
    expect(await writer.flush()).toBe(3);
    expect(await stored()).toEqual(['evt-00000001', 'evt-00000002', 'evt-00000004']);
    const inbox = await t.db.query<{ batch: string }>('SELECT batch FROM sdk_rollup_inbox ORDER BY batch');
    expect(inbox.rows.map((r) => Number(r.batch))).toEqual([1, 4]);
    expect(await queue.refreshDepth()).toBe(0);
    expect(await claims()).toBe(0);
  });

  it('stores nothing twice when a message comes back after its batch was written', async () => {
    await request([eventRow(5), eventRow(6)], 'commit');
    const claim = await queue.next(10_000);
    // A writer that committed, then died before acking: the message is redelivered.
    expect(await t.db.transaction((tx) => claim!.write(tx))).toEqual({ batches: 1, events: 2 });
    await claim!.retry();
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await writer.flush()).toBe(0);
    expect(await queue.refreshDepth()).toBe(0);
    expect(await stored()).toEqual(['evt-00000005', 'evt-00000006']);
  });

  it('hands a failed write out again, and drops a message it cannot read', async () => {
    await request([eventRow(7)], 'commit');
    const nc = await connect({ servers: NATS_URL });
    await nc.jetstream().publish(`${stream}.events`, new TextEncoder().encode('garbage'));
    await nc.close();
    const claim = await queue.next(10_000);
    expect(poison).toEqual(['no head line']);
    await expect(
      t.db.transaction(async (tx) => {
        await claim!.write(tx);
        throw new Error('the writer died');
      }),
    ).rejects.toThrow('the writer died');
    await claim!.retry();
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await writer.flush()).toBe(1);
    expect(await stored()).toEqual(['evt-00000007']);
  });

  it.skipIf(engine === 'pglite')(
    'waits for a request still in its transaction: stores the batch if it commits, drops it if not',
    async () => {
      for (const outcome of ['commit', 'rollback'] as const) {
        await t.db.exec('DELETE FROM events');
        let finish!: () => void;
        const held = new Promise<void>((r) => {
          finish = r;
        });
        let sent!: () => void;
        const published = new Promise<void>((r) => {
          sent = r;
        });
        const req = t.db
          .transaction(async (tx) => {
            const packed = queue.pack([eventRow(8), eventRow(9)]);
            await insertClaims(
              tx,
              packed.map((p) => ({ id: p.claim, events: p.events })),
              new Date(),
            );
            await queue.send(packed);
            sent();
            await held;
            if (outcome === 'rollback') throw new Error('rolled back');
          })
          .catch(() => {});
        await published;
        // The writer takes the message while the request has not committed: it must wait.
        const flushing = writer.flush();
        await new Promise((r) => setTimeout(r, 300));
        expect(await stored()).toEqual([]);
        finish();
        await req;
        expect(await flushing).toBe(outcome === 'commit' ? 2 : 0);
        expect(await stored()).toEqual(outcome === 'commit' ? ['evt-00000008', 'evt-00000009'] : []);
        expect(await claims()).toBe(0);
      }
    },
  );

  it('leaves a stream and a consumer an operator changed as they are when another process connects', async () => {
    await withJsm(async (jsm) => {
      const info = await jsm.streams.info(stream);
      await jsm.streams.update(stream, { ...info.config, max_bytes: 512 * 1024 * 1024 });
    });
    const other = await JetStreamQueue.connect({ url: NATS_URL!, stream, ackWaitMs: 9_000 });
    try {
      const [streamInfo, consumerInfo] = await withJsm((jsm) =>
        Promise.all([jsm.streams.info(stream), jsm.consumers.info(stream, `${stream}_writer`)]),
      );
      expect(streamInfo.config.max_bytes).toBe(512 * 1024 * 1024);
      expect(consumerInfo.config.ack_wait).toBe(2_000 * 1_000_000);
    } finally {
      await other.close();
    }
  });

  it('opens its circuit on a failed publish (the route goes sync at once) and closes it once the stream answers', async () => {
    const config = await withJsm((jsm) => jsm.streams.info(stream).then((i) => i.config));
    await withJsm((jsm) => jsm.streams.delete(stream));
    await expect(queue.send(queue.pack([eventRow(10)]))).rejects.toThrow();
    expect(queue.healthy()).toBe(false);
    expect(circuit).toEqual([true]);
    await expect(queue.send(queue.pack([eventRow(11)]))).rejects.toThrow('not available');
    await withJsm(async (jsm) => {
      await jsm.streams.add(config);
      await jsm.consumers.add(stream, { durable_name: `${stream}_writer`, ack_policy: AckPolicy.Explicit });
    });
    for (let i = 0; i < 50 && !queue.healthy(); i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(queue.healthy()).toBe(true);
    expect(circuit).toEqual([true, false]);
    await request([eventRow(12)], 'commit');
    expect(await writer.flush()).toBe(1);
  });
});

describe.skipIf(!NATS_URL)('POST /api/sdk/events with NATS_URL', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ env: { NATS_URL: NATS_URL! } });
    await t.app.ingest.writer.stop();
    const queue = t.app.ingest.queue;
    for (let i = 0; i < 50 && !queue.healthy(); i += 1) await new Promise((r) => setTimeout(r, 100));
    // The tests' NATS is a test server: drop batches other runs left in the default stream.
    await withJsm((jsm) => jsm.streams.purge('SVC_INGEST'));
  });
  afterAll(() => t?.close());

  it('answers 202 once the batch is in the stream, and the writer stores it', async () => {
    expect(t.app.ingest.queue.kind).toBe('jetstream');
    const k = await ingestKey(t);
    const res = await postEvents(t.app, { api_key: k.key, events: sdkEvents(1, 3) });
    expect([res.statusCode, res.headers['x-svc-ingest-mode']]).toEqual([202, 'async']);
    expect(res.json()).toEqual({ accepted: 3, rejected: 0, deduped: 0, errors: [] });
    expect(await storedEvents(t, k.teamId)).toHaveLength(0);
    expect(await t.app.ingest.writer.flush()).toBe(3);
    expect(await storedEvents(t, k.teamId)).toHaveLength(3);
  });
});
