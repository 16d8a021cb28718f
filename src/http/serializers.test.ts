import fastJsonStringify from 'fast-json-stringify';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildResponseSerializer, reachableSchemas, sendSerialised, serialise } from './serializers.js';

const Money = { $id: 'Money', type: 'object', properties: { robux: { type: 'integer' } } };
const Pass = {
  $id: 'Pass',
  type: 'object',
  properties: { name: { type: 'string' }, price: { $ref: 'Money' } },
};
const Game = {
  $id: 'Game',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    passes: { type: 'array', items: { $ref: 'Pass' } },
    top_price: { $ref: 'Pass#/properties/price' },
    self: { $ref: '#/properties/id' },
  },
};
const Unrelated = { $id: 'Unrelated', type: 'object', properties: { x: { type: 'string' } } };
const shared = { Money, Pass, Game, Unrelated };

describe('reachableSchemas', () => {
  it('follows $ref through the shared schemas, pointers included, and leaves the rest out', () => {
    const route = { type: 'object', properties: { game: { $ref: 'Game' } } };
    expect(Object.keys(reachableSchemas(route, shared)).sort()).toEqual(['Game', 'Money', 'Pass']);
    expect(reachableSchemas({ $ref: 'Pass#/properties/price' }, shared)).toEqual({ Pass, Money });
    expect(reachableSchemas({ anyOf: [{ type: 'null' }, { $ref: 'Money' }] }, shared)).toEqual({ Money });
    // Local pointers and ids no shared schema has name nothing here.
    expect(reachableSchemas({ $ref: '#/definitions/x' }, shared)).toEqual({});
    expect(reachableSchemas({ $ref: 'Nowhere' }, shared)).toEqual({});
  });

  it('ends on schemas that refer to each other', () => {
    const A = { $id: 'A', type: 'object', properties: { b: { $ref: 'B' } } };
    const B = { $id: 'B', type: 'object', properties: { a: { $ref: 'A' } } };
    expect(reachableSchemas({ $ref: 'A' }, { A, B })).toEqual({ A, B });
  });
});

describe('buildResponseSerializer', () => {
  const data = {
    id: 7,
    passes: [{ name: 'VIP', price: { robux: 499, secret: 'x' }, extra: true }],
    top_price: { robux: 499 },
    self: 7,
    dropped: 'not in the schema',
  };

  it("writes exactly what fast-json-stringify writes with every shared schema (Fastify's default)", () => {
    const route = { type: 'object', properties: { game: { $ref: 'Game' }, n: { type: 'number' } } };
    const ours = buildResponseSerializer(shared)({ schema: route });
    const fastifys = fastJsonStringify(route as never, { schema: shared as never });
    const doc = { game: data, n: 1.5 };
    expect(ours(doc)).toBe(fastifys(doc));
    expect(JSON.parse(ours(doc))).toEqual({
      game: { id: 7, passes: [{ name: 'VIP', price: { robux: 499 } }], top_price: { robux: 499 }, self: 7 },
      n: 1.5,
    });
  });

  it('serializes a response schema that is itself a shared one', () => {
    const serialize = buildResponseSerializer(shared)({ schema: Game });
    expect(JSON.parse(serialize(data)).passes).toEqual([{ name: 'VIP', price: { robux: 499 } }]);
  });

  it('serves the routes of an app whose responses refer to shared schemas', async () => {
    const app = Fastify({
      schemaController: { compilersFactory: { buildSerializer: buildResponseSerializer } },
    });
    for (const schema of Object.values(shared)) app.addSchema(schema);
    app.get('/game', { schema: { response: { 200: { $ref: 'Game' } } } }, async () => data);
    app.get('/pass', { schema: { response: { 200: { $ref: 'Pass' } } } }, async () => data.passes[0]);
    try {
      expect((await app.inject({ url: '/game' })).json()).toEqual({
        id: 7,
        passes: [{ name: 'VIP', price: { robux: 499 } }],
        top_price: { robux: 499 },
        self: 7,
      });
      expect((await app.inject({ url: '/pass' })).body).toBe('{"name":"VIP","price":{"robux":499}}');
    } finally {
      await app.close();
    }
  });
});

describe('serialise and sendSerialised', () => {
  const page = {
    games: [
      { name: '🔥 Blox Fruits [UPDATE]', ccu: 1 },
      { name: 'Café Tycoon', ccu: null },
    ],
  };

  it('makes the JSON bytes once, in memory of their own', () => {
    const bytes = serialise(page);
    expect(bytes.toString('utf8')).toBe(JSON.stringify(page));
    // UTF-8: the emoji is 4 bytes (2 UTF-16 units), é is 2.
    expect(bytes.length).toBe(JSON.stringify(page).length + 2 + 1);
    // Not a slice of Node's shared pool, which a cached page would keep alive.
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
  });

  it('answers the bytes as they are, with the JSON content type and their length in bytes', async () => {
    const app = Fastify();
    const bytes = serialise(page);
    app.get('/page', async (_request, reply) => sendSerialised(reply, bytes));
    const res = await app.inject({ method: 'GET', url: '/page' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.json()).toEqual(page);
    const head = await app.inject({ method: 'HEAD', url: '/page' });
    expect(head.headers['content-length']).toBe(String(bytes.length));
    expect(head.body).toBe('');
    await app.close();
  });
});
