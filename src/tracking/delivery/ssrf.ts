/**
 * The SSRF guard for webhook URLs. A user-supplied URL must not make the service call into its
 * own network (cloud metadata at 169.254.169.254, databases on 10/8, the host itself), so a
 * webhook may only target http(s) on public unicast addresses. Range checks come from ipaddr.js
 * (the same table proxy-addr trusts) rather than string matching; anything it does not call
 * plain `unicast` — loopback, private, link-local, unique-local, CGNAT, 0/8, multicast, reserved,
 * NAT64/6to4/Teredo forms that can embed a private IPv4 — is refused. IPv4-mapped IPv6 is judged
 * as the IPv4 address it maps.
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

/** Why `address` may not be a webhook target, or undefined when it is public unicast. */
export function addressRefusal(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
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
