import { BlockList, isIP } from 'node:net';

/**
 * INTERFACE_ALLOWED_HOSTS: the SFTP servers an administrator's interface routes may name, set by
 * whoever runs the platform. Unset, any host may be named. Set, a route's hostname must match an
 * entry when it is saved and every time it is connected to (the connection test, the intake, the
 * deliveries): a route saved before the setting that no longer matches is refused, not used.
 *
 * Entries, comma-separated, case-insensitive:
 * - `sftp.example.org`: that name exactly;
 * - `*.example.org`: any name below example.org (one label or more), not example.org itself;
 * - `192.0.2.10`, `2001:db8::10`: that address;
 * - `10.0.0.0/8`, `fd00::/8`: any address in the range.
 *
 * A name is matched by the name entries and an address (a route whose hostname is an IP address) by
 * the address and range entries. A name is not resolved to be checked against ranges: DNS may answer
 * otherwise when the connection is made, so a check on a resolved name would not hold.
 */
export interface AllowedHosts {
  /** The entries as given (normalised), for messages. */
  entries: readonly string[];
  /** Lower-case names without a trailing dot. */
  names: ReadonlySet<string>;
  /** ".example.org" for "*.example.org". */
  suffixes: readonly string[];
  addresses: BlockList;
}

// A DNS name: labels of letters, digits and inner hyphens (underscores too, as some SFTP hosts use them).
const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;
const isName = (value: string) =>
  value.length <= 253 && !isIP(value) && value.split('.').every((label) => LABEL.test(label));

/** A hostname as routes store it, in the form the entries are compared with. */
export const normaliseHost = (hostname: string): string =>
  hostname
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

/** The variable's value, or undefined when unset or empty; an entry of none of the forms above throws. */
export function parseAllowedHosts(value: string | undefined): AllowedHosts | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return undefined;
  const entries = text.split(',').map((entry) => entry.trim().toLowerCase());
  const names = new Set<string>();
  const suffixes: string[] = [];
  const addresses = new BlockList();
  for (const entry of entries) {
    const invalid = () => new Error(`Invalid INTERFACE_ALLOWED_HOSTS entry: ${entry || '(empty)'}`);
    const [address, bits, extra] = entry.split('/');
    const version = isIP(address ?? '');
    if (version && extra === undefined) {
      const family = version === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) addresses.addAddress(address!, family);
      else if (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 6 ? 128 : 32))
        addresses.addSubnet(address!, Number(bits), family);
      else throw invalid();
    } else if (entry.startsWith('*.') && isName(entry.slice(2)) && entry.slice(2).includes('.')) {
      // "*.org" would let a route name any host of a top-level domain: a suffix has two labels at least.
      suffixes.push(entry.slice(1));
    } else if (isName(entry.replace(/\.$/, ''))) {
      names.add(entry.replace(/\.$/, ''));
    } else {
      throw invalid();
    }
  }
  return { entries, names, suffixes, addresses };
}

/** Whether a route may name `hostname`: always without a list, else when an entry matches. */
export function hostAllowed(allowed: AllowedHosts | undefined, hostname: string): boolean {
  if (!allowed) return true;
  const host = normaliseHost(hostname);
  const version = isIP(host);
  if (version) return allowed.addresses.check(host, version === 6 ? 'ipv6' : 'ipv4');
  // A name that is not a DNS name (empty labels, odd characters) matches no entry.
  if (!isName(host)) return false;
  return allowed.names.has(host) || allowed.suffixes.some((suffix) => host.endsWith(suffix));
}
