import { describe, expect, it } from 'vitest';
import { curlSnippet, exampleEvents, KEY_PLACEHOLDER, luauSnippet } from './snippets';

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

describe('luauSnippet', () => {
  it('fills in the ingest address and key as Luau strings', () => {
    const text = luauSnippet('https://svc.example', 'svc_live_"q"');
    expect(text).toContain('local INGEST_URL = "https://svc.example/api/sdk/events"');
    expect(text).toContain('local API_KEY = "svc_live_\\"q\\""');
    expect(text).toContain('pcall(HttpService.RequestAsync, HttpService, {');
  });
});
