/** The export's pure pieces: CSV cells, the cursor, the file name and Accept-Encoding. */
import { describe, expect, it } from 'vitest';
import { acceptsGzip, csvCell, decodeCursor, encodeCursor, exportFileName } from './export.format.js';

describe('csvCell', () => {
  it('quotes only what needs quoting and guards formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell('')).toBe('""');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+44')).toBe("'+44");
    expect(csvCell('-x,y')).toBe(`"'-x,y"`);
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  });
});

describe('the resume cursor', () => {
  it('is base64url of the ts, a space and the event id, and reads back', () => {
    const token = encodeCursor('2026-11-18T10:05:00.000Z', 'ex 0002');
    expect(token).toBe('MjAyNi0xMS0xOFQxMDowNTowMC4wMDBaIGV4IDAwMDI');
    expect(decodeCursor(token)).toEqual({ ts: new Date('2026-11-18T10:05:00.000Z'), eventId: 'ex 0002' });
  });

  it('refuses what the export could not have written', () => {
    const enc = (s: string) => Buffer.from(s).toString('base64url');
    expect(decodeCursor('not base64!')).toBeNull();
    expect(decodeCursor(enc('2026-11-18T10:05:00Z ex-000002'))).toBeNull();
    expect(decodeCursor(enc('2026-02-30T10:05:00.000Z ex-000002'))).toBeNull();
    expect(decodeCursor(enc('2026-11-18T10:05:00.000Z'))).toBeNull();
    expect(decodeCursor(enc('2026-11-18T10:05:00.000Z '))).toBeNull();
  });
});

describe('exportFileName', () => {
  it('keeps only characters a file name may hold', () => {
    expect(exportFileName('My Game/1"', '2026-11-01', '2026-11-30', 'csv')).toBe(
      'sdk-events_My_Game_1__2026-11-01_2026-11-30.csv',
    );
  });
});

describe('acceptsGzip', () => {
  it('reads the gzip entry or the wildcard, honouring q=0', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('*, gzip;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
  });
});
