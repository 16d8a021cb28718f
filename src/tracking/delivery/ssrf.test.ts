import { describe, expect, it } from 'vitest';
import { addressRefusal, checkWebhookTarget, guardedLookup, parseWebhookUrl, UrlRefused } from './ssrf.js';

describe('the webhook SSRF guard', () => {
  it('refuses every non-public range, IPv4-mapped forms included, and accepts public unicast', () => {
    const cases: [string, string | undefined][] = [
      ['127.0.0.1', 'a loopback address'],
      ['10.0.0.5', 'a private network address'],
      ['172.16.3.4', 'a private network address'],
      ['192.168.1.1', 'a private network address'],
      ['169.254.169.254', 'a link-local address'],
      ['0.1.2.3', 'an unspecified (0.0.0.0/8 or ::) address'],
      ['100.64.0.1', 'a carrier-grade NAT (100.64.0.0/10) address'],
      ['224.0.0.1', 'a multicast address'],
      ['::1', 'a loopback address'],
      ['fe80::1', 'a link-local address'],
      ['fd12::1', 'a unique-local (private) IPv6 address'],
      ['ff02::1', 'a multicast address'],
      ['::ffff:127.0.0.1', 'a loopback address'],
      ['::ffff:10.1.2.3', 'a private network address'],
      ['::ffff:169.254.169.254', 'a link-local address'],
      ['0:0:0:0:0:ffff:7f00:1', 'a loopback address'],
      ['::', 'an unspecified (0.0.0.0/8 or ::) address'],
      ['8.8.8.8', undefined],
      ['::ffff:8.8.8.8', undefined],
      ['2606:4700:4700::1111', undefined],
    ];
    expect(cases.map(([a]) => [a, addressRefusal(a)])).toEqual(cases);
  });

  it('refuses every IPv6 form that embeds an IPv4 address, even a public one', () => {
    const compatible = 'an IPv4-compatible IPv6 address (::/96), which embeds an IPv4 address';
    const translated = 'an IPv4-translated IPv6 address (::ffff:0:0:0/96), which embeds an IPv4 address';
    const nat64 = 'a NAT64 address (64:ff9b::/96 or 64:ff9b:1::/48), which embeds an IPv4 address';
    const isatap = 'an ISATAP address (an IPv4 in its interface id), which embeds an IPv4 address';
    const cases: [string, string][] = [
      ['::7f00:1', compatible],
      ['::127.0.0.1', compatible],
      ['::a00:5', compatible],
      ['::8.8.8.8', compatible],
      ['::0.0.0.2', compatible],
      ['::ffff:0:7f00:1', translated],
      ['::ffff:0:808:808', translated],
      ['64:ff9b::7f00:1', nat64],
      ['64:ff9b::808:808', nat64],
      ['64:ff9b:1::a00:5', nat64],
      ['2002:7f00:1::1', 'a 6to4 address (2002::/16), which embeds an IPv4 address'],
      ['2002:808:808::1', 'a 6to4 address (2002::/16), which embeds an IPv4 address'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo address (2001::/32), which embeds an IPv4 address'],
      ['2606:4700::5efe:7f00:1', isatap],
      ['2606:4700::200:5efe:a00:5', isatap],
    ];
    expect(cases.map(([a]) => [a, addressRefusal(a)])).toEqual(cases);
  });

  it('refuses a host name whose DNS answer is an embedded-IPv4 form, at check and at connect time', async () => {
    const resolve = async () => ['2606:4700:4700::1111', '::7f00:1'];
    await expect(checkWebhookTarget(parseWebhookUrl('https://example.com/x'), resolve)).rejects.toThrow(
      'has a host name that resolves to an IPv4-compatible IPv6 address (::/96), which embeds an IPv4 address',
    );
    const lookup = guardedLookup(async () => ['64:ff9b::a9fe:a9fe']);
    const err = await new Promise<unknown>((done) => lookup('example.com', { all: true }, (e) => done(e)));
    expect(err).toBeInstanceOf(UrlRefused);
    expect((err as Error).message).toBe(
      'has a host name that resolves to a NAT64 address (64:ff9b::/96 or 64:ff9b:1::/48), which embeds an IPv4 address',
    );
  });

  it('judges the host every URL notation denotes: numeric, octal, hex, short, trailing-dot, bracketed', async () => {
    const noDns = async (): Promise<string[]> => {
      throw new Error('no DNS for IP literals');
    };
    const refusal = async (raw: string) => {
      try {
        await checkWebhookTarget(parseWebhookUrl(raw), noDns);
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    };
    const loopback = 'targets a loopback address';
    const cases: [string, string | undefined][] = [
      ['http://2130706433/', loopback],
      ['http://0x7f.1/', loopback],
      ['http://0177.0.0.1/', loopback],
      ['http://127.1/', loopback],
      ['http://127.0.0.1./', loopback],
      ['http://[::ffff:127.0.0.1]/', loopback],
      ['http://[0:0:0:0:0:ffff:7f00:1]/', loopback],
      [
        'http://[::127.0.0.1]/',
        'targets an IPv4-compatible IPv6 address (::/96), which embeds an IPv4 address',
      ],
      ['http://[fe80::1%25eth0]/', 'is not a valid absolute URL'],
      ['http://134744072/', undefined],
    ];
    const got: [string, string | undefined][] = [];
    for (const [raw] of cases) got.push([raw, await refusal(raw)]);
    expect(got).toEqual(cases);
  });

  it('checks names through the resolver: one private address among public ones is enough to refuse', async () => {
    const resolve = async () => ['93.184.216.34', '10.0.0.1'];
    await expect(checkWebhookTarget(parseWebhookUrl('https://example.com/x'), resolve)).rejects.toThrow(
      'has a host name that resolves to a private network address',
    );
    await expect(
      checkWebhookTarget(parseWebhookUrl('https://example.com/x'), async () => ['93.184.216.34']),
    ).resolves.toBeUndefined();
    expect(() => parseWebhookUrl('https://user:pw@example.com/')).toThrow('must not carry credentials');
    expect(() => parseWebhookUrl('file:///etc/passwd')).toThrow('must use http or https (got file)');
  });
});
