import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';
import type { MailMessage, MailTransport } from '../tracking/delivery/index.js';
import { AccountMailer, resetMail } from './account-mail.js';

const T0 = new Date('2026-06-01T10:00:00Z');

describe('account e-mail over SMTP', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await migratedDb();
  });
  afterAll(async () => t.dispose());

  it('sends after commit to an existing account only, keeps a sent copy, and logs no address on failure', async () => {
    const team = await t.db.query<{ id: number }>("INSERT INTO teams (name) VALUES ('t') RETURNING id");
    await t.db.query(
      "INSERT INTO users (email, password_hash, team_id) VALUES ('smtp@example.com', 'x', $1)",
      [team.rows[0]!.id],
    );
    const sent: MailMessage[] = [];
    let fail = false;
    const transport: MailTransport = {
      async sendMail(m) {
        if (fail) throw Object.assign(new Error('550 smtp@example.com unknown'), { responseCode: 550 });
        sent.push(m);
        return {};
      },
    };
    const warnings: unknown[] = [];
    const mailer = new AccountMailer({
      db: t.db,
      clock: fixedClock(T0),
      transport,
      log: { warn: (fields: unknown) => warnings.push(fields) } as never,
    });
    const mail = resetMail('https://svc.example', 'tok');
    for (const [email, exists] of [
      ['smtp@example.com', true],
      ['ghost@example.com', false],
    ] as const) {
      const after = await t.db.transaction((tx) => mailer.queue(tx, email, mail, exists));
      after();
    }
    await mailer.idle();
    expect(sent).toEqual([
      { from: 'svc <accounts@svc.invalid>', to: 'smtp@example.com', subject: mail.subject, text: mail.body },
    ]);
    const copies = await t.db.query('SELECT to_address, sent_at FROM outbox ORDER BY id');
    expect(copies.rows).toEqual([{ to_address: 'smtp@example.com', sent_at: T0 }]);

    fail = true;
    (await t.db.transaction((tx) => mailer.queue(tx, 'smtp@example.com', mail, true)))();
    await mailer.idle();
    expect(warnings).toEqual([{ smtp_code: 550, subject: '[svc] Reset your password' }]);
  });
});
