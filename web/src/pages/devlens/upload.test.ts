import { describe, expect, it } from 'vitest';
import { checkUpload, MAX_FILE_BYTES } from './upload';

describe('checkUpload', () => {
  it('lets a CSV up to 10 MiB through', () => {
    expect(checkUpload({ name: 'export.csv', size: MAX_FILE_BYTES, type: 'text/csv' })).toBeNull();
    expect(checkUpload({ name: 'EXPORT.CSV', size: 10, type: '' })).toBeNull();
    expect(checkUpload({ name: 'export', size: 10, type: 'application/vnd.ms-excel' })).toBeNull();
  });

  it('refuses a file over the server’s cap before sending it, saying the limit', () => {
    expect(checkUpload({ name: 'big.csv', size: MAX_FILE_BYTES + 1, type: 'text/csv' })).toBe(
      '“big.csv” is 10.0 MB; Dev Lens takes files up to 10 MB (10,485,760 bytes). Export a shorter date range.',
    );
    expect(checkUpload({ name: 'huge.csv', size: 25 * 1024 * 1024, type: 'text/csv' })).toMatch(
      /^“huge.csv” is 25.0 MB;/,
    );
  });

  it('refuses an empty file and a file that is not a CSV', () => {
    expect(checkUpload({ name: 'a.csv', size: 0, type: 'text/csv' })).toBe('“a.csv” is empty.');
    expect(
      checkUpload({
        name: 'report.xlsx',
        size: 100,
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      }),
    ).toMatch(/is not a CSV file/);
    expect(checkUpload({ name: 'photo.png', size: 100, type: 'image/png' })).toMatch(/is not a CSV file/);
  });
});
