import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { WindowCounter } from '../common/rate-limit/window-counter';

export interface LoginThrottleSettings {
  /** Attempts one address may make per minute, whatever the usernames (0 = not counted). */
  attemptsPerMinute: number;
  /** Failures one address may make against one username per window; each lane's allowance at once. */
  maxFailures: number;
  /** How long failures against a username are remembered, from the first one. */
  windowSeconds: number;
}

/** Windows of `durationSeconds` per key, shared by every process and node (the rate limits' store). */
export type CounterFactory = (name: string, durationSeconds: number) => WindowCounter;

/** What an admitted attempt holds, to give back when the password was right. */
export interface LoginTicket {
  pair: string;
  account: string;
  lane: WindowCounter;
}

export type Admission =
  { admitted: true; ticket: LoginTicket } | { admitted: false; retryAfterSeconds: number };

/** Doublings past which a lane's next check is later than any window: the exponent stays finite. */
const MAX_DOUBLINGS = 40;

/**
 * Decides, before a password is checked, whether it may be. Every count is one atomic step in the
 * shared store and is taken before the check, so guesses that arrive together each see their own
 * number and no more are checked than the rules allow, on any number of processes and nodes.
 *
 * - Per address (IPv6: per /64): `attemptsPerMinute` attempts a minute, whatever the usernames.
 * - Per address and username: after `maxFailures` failures that address is refused for that
 *   username until the window that its first failure opened ends. Other addresses are not.
 * - Per username, in two lanes: attempts from an address without failures against it in the window
 *   ("new") and from the others. Each lane checks `maxFailures` at once, then its next ones after
 *   1, 3, 7… seconds from its first failure (the gaps double), until the window ends. A stranger
 *   guessing from a few addresses fills the second lane; the owner arriving from an address of their
 *   own is checked in the first.
 *
 * Usernames are counted whether or not they exist, so an unknown name is answered exactly like a
 * known one. A right password clears its address's failures against the username and gives back
 * its place in the lane; failures stay until their window ends.
 */
export class LoginThrottle {
  private readonly perAddress?: WindowCounter;
  private readonly pairs: WindowCounter;
  private readonly newAddresses: WindowCounter;
  private readonly knownAddresses: WindowCounter;

  constructor(
    counters: CounterFactory,
    private readonly settings: LoginThrottleSettings,
  ) {
    if (settings.attemptsPerMinute > 0) this.perAddress = counters('login-address', 60);
    this.pairs = counters('login-pair', settings.windowSeconds);
    this.newAddresses = counters('login-new', settings.windowSeconds);
    this.knownAddresses = counters('login-known', settings.windowSeconds);
  }

  async admit(address: string, username: string): Promise<Admission> {
    const from = addressGroup(address);
    if (this.perAddress) {
      const made = await this.perAddress.add(from);
      if (made.count > this.settings.attemptsPerMinute) return refused(made.msLeft);
    }
    const account = accountKey(username);
    const pair = `${account}/${from}`;
    const failures = await this.pairs.add(pair);
    if (failures.count > this.settings.maxFailures) return refused(failures.msLeft);
    const lane = failures.count === 1 ? this.newAddresses : this.knownAddresses;
    const place = await lane.add(account);
    const elapsedMs = this.settings.windowSeconds * 1000 - place.msLeft;
    const waitMs = laneWaitMs(place.count, elapsedMs, this.settings.maxFailures);
    if (waitMs > 0) {
      // Nothing was checked: neither count keeps this attempt.
      await Promise.all([lane.takeBack(account), this.pairs.takeBack(pair)]);
      return refused(Math.min(waitMs, place.msLeft));
    }
    return { admitted: true, ticket: { pair, account, lane } };
  }

  /** The password was right: only failures count. */
  async succeeded(ticket: LoginTicket): Promise<void> {
    await Promise.all([this.pairs.clear(ticket.pair), ticket.lane.takeBack(ticket.account)]);
  }
}

/**
 * How long the `place`-th check of a lane's window must still wait, `elapsedMs` into the window:
 * `free` checks at once, then the k-th further one at 2^k − 1 seconds.
 */
export function laneWaitMs(place: number, elapsedMs: number, free: number): number {
  if (place <= free) return 0;
  const opensAtMs = (2 ** Math.min(place - free, MAX_DOUBLINGS) - 1) * 1000;
  return Math.max(0, opensAtMs - elapsedMs);
}

function refused(ms: number): Admission {
  return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
}

/**
 * The counted form of a username: case folded (MariaDB finds users whatever the case), hashed so a
 * key has one length and no separator whatever the request held.
 */
export function accountKey(username: string): string {
  return createHash('sha256').update(username.toLowerCase()).digest('base64url').slice(0, 22);
}

/**
 * The client an address stands for: an IPv4 address itself (also when written IPv4-mapped), an IPv6
 * address's /64, since one subscriber usually holds a whole /64 and could otherwise use a fresh
 * address for every guess.
 */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  const bare = address.split('%')[0];
  if (!isIPv6(bare)) return address;
  return `${ipv6Groups(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const halves = address.split('::');
  const parts = (text: string | undefined) => (text ? text.split(':').flatMap(withEmbeddedIpv4) : []);
  const head = parts(halves[0]);
  const tail = parts(halves[1]);
  const zeros = Array.from({ length: 8 - head.length - tail.length }, () => '0');
  return [...head, ...(halves.length > 1 ? zeros : []), ...tail].map((g) => parseInt(g, 16).toString(16));
}

/** A trailing dotted IPv4 part (`64:ff9b::192.0.2.1`) stands for two groups. */
function withEmbeddedIpv4(group: string): string[] {
  if (!group.includes('.')) return [group];
  const [a, b, c, d] = group.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
