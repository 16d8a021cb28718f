/**
 * The SSRF guard for webhook URLs. A user-supplied URL must not make the service call into its
 * own network (cloud metadata at 169.254.169.254, databases on 10/8, the host itself), so a
 * webhook may only target http(s) on public unicast addresses. Range checks come from ipaddr.js
 * (the same table proxy-addr trusts) rather than string matching; anything it does not call
 * plain `unicast` — loopback, private, link-local, unique-local, CGNAT, 0/8, multicast, reserved
 * — is refused. IPv4-mapped IPv6 (::ffff:0:0/96) is judged as the IPv4 address it maps (that is
 * the address a socket reaches). Every other IPv6 form that embeds an IPv4 address is refused
 * whole, whatever the IPv4 inside, because a gateway or the host's own stack may turn it into
 * that IPv4 (no webhook receiver needs one):
 *
 * - ::/96        IPv4-compatible (RFC 4291, deprecated; `[::127.0.0.1]` is `[::7f00:1]`)
 * - ::ffff:0:0:0/96   IPv4-translated (RFC 6145)
 * - 64:ff9b::/96 and 64:ff9b:1::/48   NAT64 (RFC 6052, RFC 8215)
 * - 2002::/16    6to4 (RFC 3056)
 * - 2001::/32    Teredo (RFC 4380)
 * - any prefix with an ISATAP interface id (`…:0:5efe:a.b.c.d`, `…:200:5efe:…`; RFC 5214)
 *
 * Host notations need no special case: the WHATWG URL parser already turns `2130706433`,
 * `0x7f.1`, `0177.0.0.1`, `127.1` and `127.0.0.1.` into `127.0.0.1`, canonicalises IPv6, and
 * refuses zone ids (`[fe80::1%25eth0]`).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Resolves a host name to every address it has (injected in tests). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** A refusal with a sentence a user can act on (never the resolved address of a host name). */
export class UrlRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UrlRefused';
  }
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local (private) IPv6 address',
  unspecified: 'an unspecified (0.0.0.0/8 or ::) address',
  carrierGradeNat: 'a carrier-grade NAT (100.64.0.0/10) address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

/** The IPv6 forms that embed an IPv4 address, refused whole (see the module comment). */
const EMBEDDED_IPV4: Record<string, string> = {
  rfc6145: 'an IPv4-translated IPv6 address (::ffff:0:0:0/96)',
  rfc6052: 'a NAT64 address (64:ff9b::/96 or 64:ff9b:1::/48)',
  '6to4': 'a 6to4 address (2002::/16)',
  teredo: 'a Teredo address (2001::/32)',
};

/** Why an IPv6 address that embeds an IPv4 one is refused, or undefined for any other. */
function embeddedIpv4Refusal(a: ipaddr.IPv6, range: string): string | undefined {
  const p = a.parts;
  // ::/96 minus :: and ::1, which keep their own words (unspecified, loopback).
  if (p.slice(0, 6).every((x) => x === 0) && range === 'unicast') {
    return 'an IPv4-compatible IPv6 address (::/96)';
  }
  // ISATAP interface id: 0000:5efe or 0200:5efe (and their group-bit variants) before the IPv4.
  if ((p[4]! & 0xfcff) === 0 && p[5] === 0x5efe) return 'an ISATAP address (an IPv4 in its interface id)';
  return EMBEDDED_IPV4[range];
}

/**
 * IPv6 in canonical hex form. ipaddr.js reads a dotted suffix as IPv4-mapped (`::8.8.8.8` becomes
 * ::ffff:808:808), and DNS answers print IPv4-compatible addresses that way, so the WHATWG
 * serialiser (never dotted) rewrites it first. A zone id (`fe80::1%eth0`) is left to ipaddr.js.
 */
function canonical(address: string): string {
  if (isIP(address) !== 6) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** Why `address` may not be a webhook target, or undefined when it is public unicast. */
export function addressRefusal(raw: string): string | undefined {
  const address = canonical(raw);
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else {
      const embedded = embeddedIpv4Refusal(v6, v6.range());
      if (embedded) return `${embedded}, which embeds an IPv4 address`;
    }
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  return RANGE_WORDS[range] ?? `a reserved or special-purpose address (${range})`;
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Parses and checks the parts of a webhook URL that need no network: scheme, credentials, host. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused('is not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UrlRefused(`must use http or https (got ${url.protocol.replace(/:$/, '')})`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UrlRefused('must not carry credentials; the signature authenticates the service');
  }
  if (hostOf(url) === '') throw new UrlRefused('has no host');
  return url;
}

/**
 * Resolves the URL's host and refuses it when any address is not public: a name with one public
 * and one private address could be made to connect to either.
 */
export async function checkWebhookTarget(url: URL, resolve: Resolver): Promise<void> {
  const host = hostOf(url);
  if (isIP(host)) {
    const why = addressRefusal(host);
    if (why) throw new UrlRefused(`targets ${why}`);
    return;
  }
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new UrlRefused(`has a host name that does not resolve (${host})`);
  }
  if (addresses.length === 0) throw new UrlRefused(`has a host name that does not resolve (${host})`);
  for (const a of addresses) {
    const why = addressRefusal(a);
    if (why) throw new UrlRefused(`has a host name that resolves to ${why}`);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for net/tls connect that refuses non-public addresses at connection time, so a
 * name re-bound between the check and the connection (DNS rebinding) still cannot reach inside.
 */
export function guardedLookup(resolve: Resolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.map(addressRefusal).find((w) => w !== undefined);
        if (addresses.length === 0 || refused) {
          callback(new UrlRefused(`has a host name that resolves to ${refused ?? 'nothing'}`), []);
          return;
        }
        const all = addresses.map((a) => ({ address: a, family: isIP(a) }));
        if (options.all) callback(null, all);
        else callback(null, all[0]!.address, all[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}
