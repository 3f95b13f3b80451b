import dns from 'node:dns';
import net from 'node:net';

/**
 * SSRF guard for webhook URLs (DESIGN.md §7). Used at creation and again at every attempt: the
 * name is resolved, every address checked, and the connection pinned to the checked address.
 */

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** getaddrinfo, like https.request itself would use (so /etc/hosts is honoured). */
export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface SsrfPolicy {
  /** CIDRs exempt from the private-address refusal (config.webhookAllowedPrivateCidrs; tests only). */
  allowedCidrs: readonly string[];
  resolver?: Resolver;
}

export class UnsafeUrlError extends Error {
  constructor(
    /** Machine-readable reason, e.g. `private_address`, `metadata_host`, `scheme_not_https`. */
    readonly reason: string,
    message: string,
    readonly details: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}

export interface WebhookTarget {
  url: URL;
  /** Hostname without IPv6 brackets. */
  host: string;
  /** The checked address to connect to. */
  address: string;
  family: 4 | 6;
}

export const MAX_URL_LENGTH = 2048;

// Cloud metadata services and other internal-only names, refused whatever they resolve to.
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'metadata.packet.net',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
]);
const INTERNAL_SUFFIXES = ['.internal', '.local', '.localdomain', '.home.arpa', '.intranet', '.corp', '.lan'];

// ---------------------------------------------------------------------------------------------
// Addresses as bigints, so IPv4 and IPv6 ranges are checked the same way.

function parseIpv4(s: string): bigint | null {
  if (!net.isIPv4(s)) return null;
  return s.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function parseIpv6(input: string): bigint | null {
  let s = input.replace(/%.*$/, ''); // zone id (fe80::1%eth0)
  if (!net.isIPv6(s)) return null;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const v4 = parseIpv4(dotted[2]);
    if (v4 === null) return null;
    s = `${dotted[1]}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = s.split('::');
  const left = halves[0] ? halves[0].split(':') : [];
  const right = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const groups = halves.length === 2 ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  if (groups.length !== 8) return null;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

interface Range {
  base: bigint;
  bits: number;
  v6: boolean;
}

function parseCidr(cidr: string): Range {
  const [ip, len] = cidr.split('/');
  const v4 = parseIpv4(ip);
  const v6 = v4 === null ? parseIpv6(ip) : null;
  const bits = Number(len);
  if ((v4 === null && v6 === null) || !Number.isInteger(bits) || bits < 0 || bits > (v4 !== null ? 32 : 128)) throw new Error(`invalid CIDR ${cidr}`);
  return { base: (v4 ?? v6)!, bits, v6: v4 === null };
}

function inRange(value: bigint, v6: boolean, range: Range): boolean {
  if (range.v6 !== v6) return false;
  const width = v6 ? 128 : 32;
  const shift = BigInt(width - range.bits);
  return value >> shift === range.base >> shift;
}

// Most specific first: the first match names the reason.
const V4_BLOCKED: [string, string][] = [
  ['255.255.255.255/32', 'broadcast_address'],
  ['0.0.0.0/8', 'unspecified_address'],
  ['10.0.0.0/8', 'private_address'],
  ['100.64.0.0/10', 'cgnat_address'],
  ['127.0.0.0/8', 'loopback_address'],
  ['169.254.0.0/16', 'link_local_address'],
  ['172.16.0.0/12', 'private_address'],
  ['192.0.0.0/24', 'reserved_address'],
  ['192.0.2.0/24', 'reserved_address'],
  ['192.88.99.0/24', 'reserved_address'],
  ['192.168.0.0/16', 'private_address'],
  ['198.18.0.0/15', 'reserved_address'],
  ['198.51.100.0/24', 'reserved_address'],
  ['203.0.113.0/24', 'reserved_address'],
  ['224.0.0.0/4', 'multicast_address'],
  ['240.0.0.0/4', 'reserved_address'],
];
const V6_BLOCKED: [string, string][] = [
  ['64:ff9b:1::/48', 'private_address'],
  ['100::/64', 'reserved_address'],
  ['2001::/32', 'reserved_address'], // Teredo: tunnels to an arbitrary IPv4 address
  ['2001:db8::/32', 'reserved_address'],
  ['fc00::/7', 'unique_local_address'],
  ['fe80::/10', 'link_local_address'],
  ['fec0::/10', 'private_address'],
  ['ff00::/8', 'multicast_address'],
];
const v4Blocked = V4_BLOCKED.map(([c, reason]) => ({ range: parseCidr(c), reason }));
const v6Blocked = V6_BLOCKED.map(([c, reason]) => ({ range: parseCidr(c), reason }));
// IPv6 forms that carry an IPv4 address, which is what gets checked.
const EMBEDDED_V4 = [
  { range: parseCidr('::ffff:0:0/96'), at: 0n }, // IPv4-mapped
  { range: parseCidr('64:ff9b::/96'), at: 0n }, // NAT64
  { range: parseCidr('::/96'), at: 0n }, // IPv4-compatible (deprecated)
  { range: parseCidr('2002::/16'), at: 80n }, // 6to4
];
const GLOBAL_UNICAST_V6 = parseCidr('2000::/3');

/** The IPv4 address an IPv6 address stands for (mapped, NAT64, compatible, 6to4), or null. */
function embeddedIpv4(value: bigint): bigint | null {
  const found = EMBEDDED_V4.find(({ range }) => inRange(value, true, range));
  return found ? (value >> found.at) & 0xffffffffn : null;
}

function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => Number((value >> s) & 0xffn)).join('.');
}

/**
 * Why an address may not be called, or null when it is public. An address inside an allowed CIDR
 * (tests only) is accepted, also in its IPv4-mapped forms.
 */
export function classifyAddress(address: string, allowedCidrs: readonly string[] = []): string | null {
  const allowed = allowedRanges(allowedCidrs);
  const v4 = parseIpv4(address);
  if (v4 !== null) {
    if (allowed.some((r) => inRange(v4, false, r))) return null;
    return v4Blocked.find((b) => inRange(v4, false, b.range))?.reason ?? null;
  }
  const v6 = parseIpv6(address);
  if (v6 === null) return 'invalid_address';
  if (allowed.some((r) => inRange(v6, true, r))) return null;
  if (v6 === 0n) return 'unspecified_address';
  if (v6 === 1n) return 'loopback_address';
  const embedded = embeddedIpv4(v6);
  if (embedded !== null) return classifyAddress(formatIpv4(embedded), allowedCidrs);
  const blocked = v6Blocked.find((b) => inRange(v6, true, b.range));
  if (blocked) return blocked.reason;
  return inRange(v6, true, GLOBAL_UNICAST_V6) ? null : 'reserved_address';
}

const parsedAllowed = new Map<string, Range[]>();
function allowedRanges(cidrs: readonly string[]): Range[] {
  const key = cidrs.join(',');
  let ranges = parsedAllowed.get(key);
  if (!ranges) parsedAllowed.set(key, (ranges = cidrs.map(parseCidr)));
  return ranges;
}

const stripBrackets = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The checks that need no DNS: a well-formed https URL without credentials whose host is not an
 * internal name or a refused literal address. The WHATWG parser has already turned decimal, hex
 * and octal IPv4 forms (`https://2130706433/`, `https://0x7f000001/`) into dotted form.
 */
export function parseWebhookUrl(raw: unknown, policy: SsrfPolicy): URL {
  if (typeof raw !== 'string' || raw.trim() === '') throw new UnsafeUrlError('malformed_url', 'url must be an absolute https URL');
  if (raw.length > MAX_URL_LENGTH) throw new UnsafeUrlError('url_too_long', `url must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UnsafeUrlError('malformed_url', 'url must be an absolute https URL');
  }
  if (url.protocol !== 'https:') throw new UnsafeUrlError('scheme_not_https', 'url must use https', { scheme: url.protocol.replace(/:$/, '') });
  if (url.username || url.password) throw new UnsafeUrlError('credentials_in_url', 'url must not contain a user name or password');
  const host = stripBrackets(url.hostname).toLowerCase().replace(/\.$/, '');
  if (host === '') throw new UnsafeUrlError('malformed_url', 'url must name a host');
  if (net.isIP(host)) {
    const reason = classifyAddress(host, policy.allowedCidrs);
    if (reason) throw new UnsafeUrlError(reason, `url points at a non-public address (${reason.replace(/_/g, ' ')})`, { address: host });
    return url;
  }
  if (METADATA_HOSTS.has(host)) throw new UnsafeUrlError('metadata_host', 'url points at a cloud metadata service', { host });
  if (host === 'localhost' || host.endsWith('.localhost')) throw new UnsafeUrlError('loopback_host', 'url points at this machine', { host });
  if (!host.includes('.') || INTERNAL_SUFFIXES.some((s) => host.endsWith(s))) {
    throw new UnsafeUrlError('internal_host', 'url must name a public host', { host });
  }
  return url;
}

/** Every check: the URL's own, then DNS; every address must be public. Returns the address to pin. */
export async function resolveWebhookTarget(raw: unknown, policy: SsrfPolicy): Promise<WebhookTarget> {
  const url = parseWebhookUrl(raw, policy);
  const host = stripBrackets(url.hostname).replace(/\.$/, '');
  const family = net.isIP(host);
  if (family) return { url, host, address: host, family: family as 4 | 6 };
  let addresses: { address: string; family: number }[];
  try {
    addresses = await (policy.resolver ?? systemResolver)(host);
  } catch (err) {
    throw new UnsafeUrlError('unresolvable_host', `the host ${host} could not be resolved`, {
      host,
      error: (err as NodeJS.ErrnoException).code ?? 'dns_error',
    });
  }
  if (addresses.length === 0) throw new UnsafeUrlError('unresolvable_host', `the host ${host} could not be resolved`, { host });
  for (const a of addresses) {
    const reason = classifyAddress(a.address, policy.allowedCidrs);
    if (reason) {
      throw new UnsafeUrlError(reason, `the host ${host} resolves to a non-public address (${reason.replace(/_/g, ' ')})`, { host, address: a.address });
    }
  }
  const first = addresses[0];
  return { url, host, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * A `lookup` for http(s).request that answers with the already-checked address, so the socket
 * connects where the check looked while TLS SNI and Host still carry the hostname.
 */
export function pinnedLookup(address: string, family: 4 | 6): net.LookupFunction {
  return ((_hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as net.LookupFunction;
}
