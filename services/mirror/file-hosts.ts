/**
 * Where a mirror may download an attachment from: the remote service names the URLs, so it is trusted only as
 * far as the Airtable API lets it be. Airtable serves attachments from its content hosts (`dl.airtable.com`,
 * `*.airtableusercontent.com`) over HTTPS; any other service from its own host name. A URL whose host
 * resolves to a loopback, private or link-local address is refused unless the service itself is on one (the
 * local server, a test double), and a redirect is followed only to a URL that passes the same checks.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const AIRTABLE_API = /(^|\.)airtable\.com$/;
const AIRTABLE_FILES = (host: string) =>
  host === 'dl.airtable.com' || host === 'content.airtable.com' || /\.airtableusercontent\.com$/.test(host);

/** Addresses that reach this machine or its network, never the service's public file hosts. */
const INTERNAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv6');

function isInternal(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return INTERNAL.check(mapped, 'ipv4');
  const family = isIP(address);
  return family === 0 || INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A host name's addresses (an address literal is its own); none when it does not resolve. */
async function addressesOf(host: string): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return [bare];
  try {
    return (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return [];
  }
}

export class FileHosts {
  private local: Promise<boolean> | undefined;
  private readonly service: URL;

  constructor(serviceUrl: string) {
    this.service = new URL(serviceUrl);
  }

  /** Why `url` may not be downloaded, or undefined when it may. */
  async refusal(url: URL): Promise<string | undefined> {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'it is not an http(s) URL';
    if (url.username || url.password) return 'it carries credentials';
    const host = url.hostname.toLowerCase();
    const hosted = AIRTABLE_API.test(this.service.hostname.toLowerCase());
    if (hosted ? !(AIRTABLE_FILES(host) && url.protocol === 'https:') : host !== this.service.hostname)
      return `${host} is not a file host of the service`;
    this.local ??= addressesOf(this.service.hostname).then((all) => all.length > 0 && all.every(isInternal));
    if (await this.local) return undefined;
    const addresses = await addressesOf(host);
    if (addresses.length === 0) return `${host} does not resolve`;
    if (addresses.some(isInternal)) return `${host} is an address of this machine or its network`;
    return undefined;
  }
}
