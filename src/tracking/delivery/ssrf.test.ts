import { describe, expect, it } from 'vitest';
import { addressRefusal, checkWebhookTarget, parseWebhookUrl } from './ssrf.js';

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
      ['64:ff9b::a00:5', 'a reserved or special-purpose address (rfc6052)'],
      ['8.8.8.8', undefined],
      ['::ffff:8.8.8.8', undefined],
      ['2606:4700:4700::1111', undefined],
    ];
    expect(cases.map(([a]) => [a, addressRefusal(a)])).toEqual(cases);
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
