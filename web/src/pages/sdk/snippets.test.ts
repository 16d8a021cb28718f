import { describe, expect, it } from 'vitest';
import {
  curlSnippet,
  exampleEvents,
  KEY_PLACEHOLDER,
  luaString,
  luauSnippet,
  SALT_PLACEHOLDER,
  typescriptSnippet,
} from './snippets';

const NOW = new Date('2026-11-24T18:05:00.000Z');

describe('exampleEvents', () => {
  it('builds a session_start and a level event that meet the envelope rules', () => {
    const events = exampleEvents('4924922222', NOW, 'a1b2c3');
    expect(events.map((e) => e.type)).toEqual(['session_start', 'level']);
    for (const e of events) {
      expect(e.event_id.length).toBeGreaterThanOrEqual(8);
      expect(e.event_id.length).toBeLessThanOrEqual(40);
      expect(e.ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(e.game_id).toBe('4924922222');
      expect(e.session_id).toBe('sess-a1b2c3');
    }
    expect(events[1]?.payload).toEqual({ level: 1, score: 1200, result: 'win' });
    expect(events[1]?.ts).toBe('2026-11-24T18:06:35.000Z');
  });

  it('uses a placeholder game id when none is known', () => {
    expect(exampleEvents('', NOW, 'a1b2c3')[0]?.game_id).toBe('1234567890');
  });
});

describe('curlSnippet', () => {
  it('posts the batch with the key to this origin, the JSON parseable back out of the quotes', () => {
    const events = exampleEvents('42', NOW, 'zz99yy88');
    const text = curlSnippet('http://localhost:8080', 'svc_live_abc', events);
    expect(text.split('\n')[0]).toBe("curl -sS -X POST 'http://localhost:8080/api/sdk/events' \\");
    const body = /--data-binary '([\s\S]*)'$/.exec(text)?.[1] ?? '';
    expect(JSON.parse(body)).toEqual({ api_key: 'svc_live_abc', events });
  });

  it('shows a placeholder without a key and escapes single quotes for the shell', () => {
    const events = exampleEvents("it's", NOW, 'zz99yy88');
    const text = curlSnippet('http://x', null, events);
    expect(text).toContain(KEY_PLACEHOLDER);
    expect(text).toContain(`"game_id": "it'\\''s"`);
  });
});

describe('luaString', () => {
  it('escapes backslashes, quotes and control characters', () => {
    expect(luaString('plain')).toBe('"plain"');
    expect(luaString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(luaString('l1\nl2\r\t')).toBe('"l1\\nl2\\r\\t"');
    // Decimal escapes are padded to three digits, so a following digit is not read into them.
    expect(luaString('\u00001\u001b')).toBe('"\\0001\\027"');
  });
});

describe('luauSnippet', () => {
  it('is the Svc module quick start with the key and this origin filled in', () => {
    const text = luauSnippet('https://svc.example', 'svc_live_"q"\\');
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      '-- 1. Download Svc.lua (https://svc.example/downloads/Svc.lua) and put it in ServerScriptService',
    );
    expect(text).toContain('-- 2. Enable Game Settings > Security > Allow HTTP Requests.');
    expect(lines).toContain('local Svc = require(game.ServerScriptService.Svc)');
    expect(lines).toContain('  api_key = "svc_live_\\"q\\"\\\\", -- scope sdk:ingest');
    expect(lines).toContain('  game_id = tostring(game.GameId),');
    expect(lines).toContain('  base_url = "https://svc.example",');
    expect(lines).toContain(
      '  -- Replace with your own secret: 16+ random characters, kept private and never changed',
    );
    expect(lines).toContain('  salt = "REPLACE_ME",');
    expect(lines).toContain(
      '  Svc.track("level", { level = level, score = score, result = won and "win" or "loss" }, player)',
    );
    expect(text).not.toContain('HttpService');
  });

  it('shows the key placeholder without a key, and a salt Svc.start refuses until it is replaced', () => {
    const text = luauSnippet('http://localhost:8080', null);
    expect(text.split('\n')).toContain(`  api_key = "${KEY_PLACEHOLDER}", -- scope sdk:ingest`);
    expect(text).toContain('(http://localhost:8080/downloads/Svc.lua)');
    // Svc.lua asserts #config.salt >= 16.
    expect(SALT_PLACEHOLDER.length).toBeLessThan(16);
  });
});

describe('typescriptSnippet', () => {
  it('is the @svc/sdk quick start with key, game and origin as JSON strings', () => {
    const text = typescriptSnippet('https://svc.example', 'svc_live_"q"\\', 'obby-42');
    const lines = text.split('\n');
    expect(lines).toContain('import { SvcClient } from "@svc/sdk";');
    expect(lines).toContain('const svc = new SvcClient({');
    expect(lines).toContain('  apiKey: "svc_live_\\"q\\"\\\\",');
    expect(lines).toContain('  gameId: "obby-42",');
    expect(lines).toContain('  platform: "platform_1",');
    expect(lines).toContain('  baseUrl: "https://svc.example",');
    expect(text).toContain('svc.track("level", { level: 3, score: 1200, result: "win" }, { playerId: ');
    expect(lines).toContain(
      'await svc.close(); // flushes what is queued; call it when the server shuts down',
    );
  });

  it('shows placeholders without a key or a game', () => {
    const text = typescriptSnippet('http://localhost:8080', null, '');
    expect(text).toContain(`  apiKey: "${KEY_PLACEHOLDER}",`);
    expect(text).toContain('  gameId: "1234567890",');
    expect(text).toContain('  baseUrl: "http://localhost:8080",');
  });
});
