import { describe, expect, it } from 'vitest';
import { joinBytes } from './bytes.js';

describe('joinBytes', () => {
  it('writes strings as UTF-8 and bytes as they are, in order, into a buffer of its own', () => {
    const e = Buffer.from('é'); // 0xc3 0xa9
    const out = joinBytes(['a🎮', '', e.subarray(0, 1), e.subarray(1), new Uint8Array([0x0a])]);
    expect([...out]).toEqual([0x61, 0xf0, 0x9f, 0x8e, 0xae, 0xc3, 0xa9, 0x0a]);
    expect(out.toString('utf8')).toBe('a🎮é\n');
    expect(out.byteOffset).toBe(0);
    expect(out.buffer.byteLength).toBe(8);
  });

  it('gives an empty buffer for no pieces', () => {
    expect(joinBytes([]).length).toBe(0);
  });
});
