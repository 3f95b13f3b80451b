import { classifyAddress, pinnedLookup, resolveWebhookTarget, UnsafeUrlError, type Resolver } from '../../src/webhooks/ssrf';

// An injected resolver: there is no internet in tests, and the point is names that lie.
const dnsAnswers: Record<string, string[]> = {
  'public.example.com': ['93.184.215.14'],
  'dual.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'evil.example.com': ['10.0.0.5'],
  'rebind.example.com': ['93.184.215.14', '127.0.0.1'],
  'v6private.example.com': ['fd00::1'],
  'mapped.example.com': ['::ffff:169.254.169.254'],
  'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
  'cgnat.example.com': ['100.100.100.200'],
};
const resolver: Resolver = async (host) => {
  const answers = dnsAnswers[host];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const policy = { allowedCidrs: [] as string[], resolver };

async function refusal(url: unknown, p = policy): Promise<UnsafeUrlError> {
  try {
    await resolveWebhookTarget(url, p);
  } catch (err) {
    if (err instanceof UnsafeUrlError) return err;
    throw err;
  }
  throw new Error(`${String(url)} was accepted`);
}

const HOSTILE: [string, string][] = [
  ['http://public.example.invalid/hook', 'scheme_not_https'],
  ['ftp://public.example.com/', 'scheme_not_https'],
  ['https://user:pass@public.example.com/', 'credentials_in_url'],
  ['https://token@public.example.com/', 'credentials_in_url'],
  ['https://127.0.0.1/', 'loopback_address'],
  ['https://127.1/', 'loopback_address'],
  ['https://2130706433/', 'loopback_address'],
  ['https://0x7f000001/', 'loopback_address'],
  ['https://0177.0.0.1/', 'loopback_address'],
  ['https://017700000001/', 'loopback_address'],
  ['https://0x7f.1/', 'loopback_address'],
  ['https://127.000.000.001:8443/x', 'loopback_address'],
  ['https://localhost/', 'loopback_host'],
  ['https://api.localhost/', 'loopback_host'],
  ['https://10.0.0.1/', 'private_address'],
  ['https://172.16.5.4/', 'private_address'],
  ['https://172.31.255.255/', 'private_address'],
  ['https://192.168.1.1/', 'private_address'],
  ['https://3232235777/', 'private_address'], // 192.168.1.1 in decimal
  ['https://100.64.0.1/', 'cgnat_address'],
  ['https://169.254.169.254/latest/meta-data/', 'link_local_address'],
  ['https://0xa9fea9fe/', 'link_local_address'], // 169.254.169.254 in hex
  ['https://169.254.1.1/', 'link_local_address'],
  ['https://0.0.0.0/', 'unspecified_address'],
  ['https://0/', 'unspecified_address'],
  ['https://224.0.0.1/', 'multicast_address'],
  ['https://239.255.255.250/', 'multicast_address'],
  ['https://255.255.255.255/', 'broadcast_address'],
  ['https://192.0.2.1/', 'reserved_address'],
  ['https://[::1]/', 'loopback_address'],
  ['https://[0:0:0:0:0:0:0:1]/', 'loopback_address'],
  ['https://[::]/', 'unspecified_address'],
  ['https://[fd12:3456::1]/', 'unique_local_address'],
  ['https://[fc00::1]/', 'unique_local_address'],
  ['https://[fe80::1]/', 'link_local_address'],
  ['https://[ff02::1]/', 'multicast_address'],
  ['https://[2001:db8::1]/', 'reserved_address'],
  ['https://[::ffff:127.0.0.1]/', 'loopback_address'],
  ['https://[::ffff:169.254.169.254]/', 'link_local_address'],
  ['https://[::ffff:10.0.0.1]/', 'private_address'],
  ['https://[64:ff9b::10.0.0.1]/', 'private_address'],
  ['https://[64:ff9b::169.254.169.254]/', 'link_local_address'],
  ['https://[::127.0.0.1]/', 'loopback_address'],
  ['https://[2002:7f00:1::1]/', 'loopback_address'], // 6to4 of 127.0.0.1
  ['https://metadata.google.internal/computeMetadata/v1/', 'metadata_host'],
  ['https://METADATA.GOOGLE.INTERNAL./', 'metadata_host'],
  ['https://metadata/', 'metadata_host'],
  ['https://instance-data/latest/meta-data/', 'metadata_host'],
  ['https://instance-data.ec2.internal/', 'metadata_host'],
  ['https://intranet/', 'internal_host'],
  ['https://db.internal/', 'internal_host'],
  ['https://printer.local/', 'internal_host'],
  ['https://evil.example.com/hook', 'private_address'],
  ['https://rebind.example.com/hook', 'loopback_address'],
  ['https://v6private.example.com/', 'unique_local_address'],
  ['https://mapped.example.com/', 'link_local_address'],
  ['https://nat64.example.com/', 'link_local_address'],
  ['https://cgnat.example.com/', 'cgnat_address'],
  ['https://nxdomain.example.com/', 'unresolvable_host'],
  ['not a url', 'malformed_url'],
  ['https://', 'malformed_url'],
];

describe('webhook URL SSRF checks', () => {
  it('has a battery of at least 30 hostile URLs', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE)('refuses %s (%s)', async (url, reason) => {
    const err = await refusal(url);
    expect(err.reason).toBe(reason);
    expect(err.message.length).toBeGreaterThan(5);
  });

  it('refuses non-strings and over-long URLs', async () => {
    expect((await refusal(42)).reason).toBe('malformed_url');
    expect((await refusal(`https://public.example.com/${'a'.repeat(2100)}`)).reason).toBe('url_too_long');
  });

  it('names the address a public-looking name resolved to', async () => {
    const err = await refusal('https://evil.example.com/hook');
    expect(err.details).toEqual({ host: 'evil.example.com', address: '10.0.0.5' });
  });

  it('accepts public https URLs and returns the checked address to pin', async () => {
    await expect(resolveWebhookTarget('https://public.example.com:8443/hooks?x=1', policy)).resolves.toMatchObject({
      host: 'public.example.com',
      address: '93.184.215.14',
      family: 4,
    });
    await expect(resolveWebhookTarget('https://dual.example.com/', policy)).resolves.toMatchObject({ address: '93.184.215.14' });
    await expect(resolveWebhookTarget('https://93.184.215.14/', policy)).resolves.toMatchObject({ address: '93.184.215.14' });
    await expect(resolveWebhookTarget('https://[2606:4700:4700::1111]/', policy)).resolves.toMatchObject({ address: '2606:4700:4700::1111', family: 6 });
    await expect(resolveWebhookTarget('https://[::ffff:8.8.8.8]/', policy)).resolves.toMatchObject({ family: 6 });
  });

  it('exempts only the configured CIDRs (tests), never metadata names', async () => {
    const exempt = { allowedCidrs: ['127.0.0.0/8'], resolver };
    await expect(resolveWebhookTarget('https://127.0.0.1:9443/hook', exempt)).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(resolveWebhookTarget('https://[::ffff:127.0.0.1]/', exempt)).resolves.toBeDefined();
    expect((await refusal('https://10.0.0.1/', exempt)).reason).toBe('private_address');
    expect((await refusal('https://169.254.169.254/', exempt)).reason).toBe('link_local_address');
    expect((await refusal('https://metadata.google.internal/', exempt)).reason).toBe('metadata_host');
    expect((await refusal('https://rebind.example.com/', { allowedCidrs: ['10.0.0.0/8'], resolver })).reason).toBe('loopback_address');
  });
});

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', null],
    ['172.32.0.1', null],
    ['100.128.0.1', null],
    ['2606:4700::1111', null],
    ['64:ff9b::808:808', null],
    ['2002:808:808::1', null],
    ['172.15.255.255', null],
    ['1::', 'reserved_address'],
    ['2001:0:4136:e378::1', 'reserved_address'],
    ['fe80::1%eth0', 'link_local_address'],
    ['fec0::1', 'private_address'],
    ['240.0.0.1', 'reserved_address'],
  ])('%s → %s', (address, reason) => {
    expect(classifyAddress(address)).toBe(reason);
  });
});

describe('pinnedLookup', () => {
  it('answers the checked address whatever name is asked, in both callback forms', () => {
    const lookup = pinnedLookup('93.184.215.14', 4) as unknown as (h: string, o: object, cb: (...a: unknown[]) => void) => void;
    const single = jest.fn();
    const all = jest.fn();
    lookup('public.example.com', {}, single);
    lookup('public.example.com', { all: true }, all);
    expect(single).toHaveBeenCalledWith(null, '93.184.215.14', 4);
    expect(all).toHaveBeenCalledWith(null, [{ address: '93.184.215.14', family: 4 }]);
  });
});
