import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../../../test/helpers/cli.js';
import { migratedDataDir, migratedDb, type TestDb } from '../../../test/helpers/db.js';
import {
  deliveryRows,
  enqueue,
  insertUser,
  makeFiring,
  testSecrets,
} from '../../../test/helpers/delivery.js';
import { fixedClock } from '../../clock.js';
import { openPglite } from '../../db/index.js';
import { DEFAULT_ENTITLEMENTS } from '../../plans.js';
import { createDelivery, type MailMessage, type MailTransport } from './index.js';

const T0 = new Date('2025-06-01T18:05:00Z');
const SUBJECT = '[svc] ccu_spike alert: Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC';

describe('alert e-mail', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await migratedDb();
  });
  afterAll(async () => t.dispose());
  afterEach(async () => t.db.exec('DELETE FROM deliveries; DELETE FROM outbox;'));

  const outbox = async () =>
    (
      await t.db.query<{ to_address: string; subject: string; body: string; sent_at: Date | null }>(
        'SELECT to_address, subject, body, sent_at FROM outbox ORDER BY id',
      )
    ).rows;

  it('without SMTP writes one outbox mail per firing for Builder and none for Explorer', async () => {
    const clock = fixedClock(T0);
    const delivery = createDelivery({
      db: t.db,
      clock,
      entitlements: DEFAULT_ENTITLEMENTS,
      webhookAllowPrivate: false,
      secrets: testSecrets,
    });
    const builder = await insertUser(t.db, 'Builder');
    const explorer = await insertUser(t.db, 'Explorer');
    await enqueue(t.db, delivery, makeFiring(builder, T0), 'Builder');
    await enqueue(t.db, delivery, makeFiring(explorer, T0), 'Explorer');
    expect(await delivery.runPending(T0)).toEqual({ delivered: 1, failed: 0, gaveUp: 0, retrying: 0 });
    expect(await delivery.runPending(T0)).toEqual({ delivered: 0, failed: 0, gaveUp: 0, retrying: 0 });
    const mails = await outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to_address: builder.email, subject: SUBJECT, sent_at: null });
    expect(mails[0]!.body).toContain(
      'Alert 7 (ccu_spike) on universe 994732206 fired at 2025-06-01T18:05:00.000Z.',
    );
  });

  it('sends no alert e-mail to an unverified address and logs only a count', async () => {
    const clock = fixedClock(T0);
    const logged: { fields: Record<string, unknown>; msg: string }[] = [];
    const log = {
      info: (fields: Record<string, unknown>, msg: string) => logged.push({ fields, msg }),
      warn: (fields: Record<string, unknown>, msg: string) => logged.push({ fields, msg }),
    };
    const delivery = createDelivery({
      db: t.db,
      clock,
      entitlements: DEFAULT_ENTITLEMENTS,
      webhookAllowPrivate: false,
      secrets: testSecrets,
      log: log as never,
    });
    const unverified = await insertUser(t.db, 'Builder', { verified: false });
    const verified = await insertUser(t.db, 'Builder');
    const skipped = makeFiring(unverified, T0);
    await enqueue(t.db, delivery, skipped, 'Builder');
    await enqueue(t.db, delivery, makeFiring(verified, T0), 'Builder');
    expect(await delivery.runPending(T0)).toEqual({ delivered: 1, failed: 0, gaveUp: 0, retrying: 0 });
    expect((await outbox()).map((m) => m.to_address)).toEqual([verified.email]);
    expect(logged).toContainEqual({
      fields: { firing_id: skipped.firingId, skipped_unverified: 1 },
      msg: 'alert e-mail skipped: address not verified',
    });
    expect(JSON.stringify(logged)).not.toContain(unverified.email);
  });

  it('with SMTP hands the mail to the transport and keeps a sent copy', async () => {
    const sent: Record<string, unknown>[] = [];
    const json = nodemailer.createTransport({ jsonTransport: true });
    const transport: MailTransport = {
      async sendMail(m: MailMessage) {
        const info = await json.sendMail(m);
        sent.push(JSON.parse(String(info.message)) as Record<string, unknown>);
        return info;
      },
    };
    const clock = fixedClock(T0);
    const delivery = createDelivery({
      db: t.db,
      clock,
      entitlements: DEFAULT_ENTITLEMENTS,
      webhookAllowPrivate: false,
      secrets: testSecrets,
      smtpUrl: 'smtp://mail.invalid:25',
      mailTransport: transport,
      mailFrom: 'alerts@svc.example',
    });
    const builder = await insertUser(t.db, 'Builder');
    await enqueue(t.db, delivery, makeFiring(builder, T0), 'Builder');
    expect((await delivery.runPending(T0)).delivered).toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      from: { address: 'alerts@svc.example' },
      to: [{ address: builder.email }],
      subject: SUBJECT,
    });
    expect(await outbox()).toMatchObject([{ to_address: builder.email, sent_at: T0 }]);
  });

  it('retries a refused SMTP connection and fails a mailbox the server rejects for good', async () => {
    const errs = [
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' }),
      Object.assign(new Error('550 no such user'), { responseCode: 550 }),
    ];
    const transport: MailTransport = {
      sendMail: async () => {
        throw errs.shift();
      },
    };
    const clock = fixedClock(T0);
    const delivery = createDelivery({
      db: t.db,
      clock,
      entitlements: DEFAULT_ENTITLEMENTS,
      webhookAllowPrivate: false,
      secrets: testSecrets,
      mailTransport: transport,
    });
    await enqueue(t.db, delivery, makeFiring(await insertUser(t.db, 'Studio'), T0), 'Studio');
    expect((await delivery.runPending(T0)).retrying).toBe(1);
    clock.advance(60_000);
    expect((await delivery.runPending(clock.now())).failed).toBe(1);
    expect(await deliveryRows(t.db)).toMatchObject([
      { channel: 'email', status: 'failed', attempts: 2, last_error: 'SMTP error 550: Error' },
    ]);
  });
});

describe('svc outbox', () => {
  it('prints the outbox mails newest first, and refuses a bad --limit', async () => {
    const dir = await migratedDataDir('svc-outbox-');
    const db = await openPglite(join(dir, 'pg'));
    let email = '';
    try {
      const clock = fixedClock(T0);
      const delivery = createDelivery({
        db,
        clock,
        entitlements: DEFAULT_ENTITLEMENTS,
        webhookAllowPrivate: false,
        secrets: testSecrets,
      });
      const builder = await insertUser(db, 'Builder');
      email = builder.email;
      await enqueue(db, delivery, makeFiring(builder, T0), 'Builder');
      await delivery.runPending(T0);
      clock.advance(3_600_000);
      await enqueue(db, delivery, { ...makeFiring(builder, clock.now()), type: 'ccu_drop' }, 'Builder');
      await delivery.runPending(clock.now());
    } finally {
      await db.close();
    }
    const res = await runSvc(['outbox', '--limit', '5'], { DATA_DIR: dir });
    expect(res.code).toBe(0);
    expect(res.out.filter((l) => /^(To|Subject|Date|Sent):/.test(l))).toEqual([
      `To:      ${email}`,
      `Subject: ${SUBJECT.replace('ccu_spike', 'ccu_drop')}`,
      'Date:    2025-06-01T19:05:00.000Z',
      'Sent:    no (outbox only: SMTP_URL is not set)',
      `To:      ${email}`,
      `Subject: ${SUBJECT}`,
      'Date:    2025-06-01T18:05:00.000Z',
      'Sent:    no (outbox only: SMTP_URL is not set)',
    ]);
    expect(res.out).toContain('  Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC');
    expect((await runSvc(['outbox', '--limit', '1'], { DATA_DIR: dir })).out[2]).toBe(
      'Date:    2025-06-01T19:05:00.000Z',
    );
    expect(await runSvc(['outbox', '--limit', '0'], { DATA_DIR: dir })).toMatchObject({
      code: 2,
      err: 'svc outbox: --limit must be a whole number from 1 to 1000\nusage: svc outbox [--limit N]',
    });
  });
});
