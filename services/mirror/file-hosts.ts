/**
 * Where a mirror may download an attachment from: the remote service names the URLs, so it is trusted only as
 * far as the Airtable API lets it be. Airtable serves attachments from its content hosts (`dl.airtable.com`,
 * `*.airtableusercontent.com`) over HTTPS; any other service from its own origin only (scheme, host and
 * port: another port of the service's host is another program, such as a local daemon or the user's own
 * local server, which a hostile service must not make the mirror read into the copy). A URL whose host
 * resolves to a loopback, private or link-local address is refused unless the service itself is on one (the
 * local server, a test double), and a redirect is followed only to a URL that passes the same checks. The
 * name is resolved again when connecting (`lookup`, the connection's own), and checked again there, so the
 * address connected to is one checked: no DNS rebinding between the check and the connection.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { ServiceError, SystemError } from '../errors';
import { asError } from '../../core/invariant';

/** A host name's addresses (the system's resolver; tests give one of their own). */
export type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/** A URL the mirror does not fetch from, or an address it does not connect to: the service named it. */
export class Refused extends ServiceError {
  constructor(message: string) {
    super('network', message);
  }
}

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
  // The unspecified and loopback addresses, and IPv4-compatible ones (`::127.0.0.1`), which some stacks
  // still connect to as the IPv4 address.
  ['::', 96],
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

export class FileHosts {
  private local: Promise<boolean> | undefined;
  private readonly service: URL;

  constructor(
    serviceUrl: string,
    private readonly resolve: Resolve = systemResolve,
  ) {
    this.service = new URL(serviceUrl);
  }

  /** A host name's addresses (an address literal is its own); none when it does not resolve. */
  private async addressesOf(host: string): Promise<string[]> {
    const bare = host.replace(/^\[|\]$/g, '');
    if (isIP(bare)) return [bare];
    try {
      return (await this.resolve(bare)).map((a) => a.address);
    } catch {
      return [];
    }
  }

  /** Whether the service itself is on this machine or its network (its files may then be too). */
  private isLocal(): Promise<boolean> {
    this.local ??= this.addressesOf(this.service.hostname).then(
      (all) => all.length > 0 && all.every(isInternal),
    );
    return this.local;
  }

  /**
   * The lookup of a download's connection (node:net's `lookup` option): the name resolved again and its
   * addresses checked again, so the connection goes to an address checked, never one the name turned to
   * after `refusal` passed it. An address literal is not looked up (node connects to it as it is, and
   * `refusal` checked it).
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    const answer = (error: NodeJS.ErrnoException | null, all: LookupAddress[]) =>
      options.all ? callback(error, all) : callback(error, all[0]?.address ?? '', all[0]?.family);
    this.connectable(hostname, options.family).then(
      (all) => answer(null, all),
      (e: unknown) => answer(asError(e), []),
    );
  };

  private async connectable(hostname: string, family: unknown): Promise<LookupAddress[]> {
    const all = (await this.resolve(hostname)).filter(
      (a) => family === undefined || family === 0 || a.family === family,
    );
    if (all.length === 0)
      // The shape of the resolver's own error (a system error: the network's state, not a bug).
      throw new SystemError(`${hostname} does not resolve`, 'ENOTFOUND', 'getaddrinfo');
    if (!(await this.isLocal()) && all.some((a) => isInternal(a.address)))
      throw new Refused(`${hostname} is an address of this machine or its network`);
    return all;
  }

  /** Why `url` may not be downloaded, or undefined when it may. */
  async refusal(url: URL): Promise<string | undefined> {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'it is not an http(s) URL';
    if (url.username || url.password) return 'it carries credentials';
    const host = url.hostname.toLowerCase();
    const hosted = AIRTABLE_API.test(this.service.hostname.toLowerCase());
    if (hosted) {
      if (!(AIRTABLE_FILES(host) && url.protocol === 'https:'))
        return `${host} is not a file host of the service`;
    } else if (url.origin !== this.service.origin)
      return `${url.origin} is not the service's own origin (${this.service.origin})`;
    if (await this.isLocal()) return undefined;
    const addresses = await this.addressesOf(host);
    if (addresses.length === 0) return `${host} does not resolve`;
    if (addresses.some(isInternal)) return `${host} is an address of this machine or its network`;
    return undefined;
  }
}
