import { Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppConfig } from '../../config/app-config';
import { refusalOf } from './address-policy';

/** An address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name resolution, replaceable in tests. */
@Injectable()
export class HostResolver {
  async resolve(host: string): Promise<ResolvedAddress[]> {
    const found = await lookup(host, { all: true, verbatim: true });
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  }
}

/** A destination that passed the check: connect to `address`, and nowhere else. */
export interface CheckedDestination {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Why a destination is refused; the message is safe to show to the configuration's admin. */
export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

/**
 * The server-side request forgery guard of every outbound delivery: a URL is allowed only when
 * every address its host resolves to is public (or in NOTIFICATION_ALLOWED_NETWORKS); the caller
 * then connects to the address checked here, so a second lookup cannot change the answer.
 */
@Injectable()
export class DestinationGuard {
  constructor(
    private readonly resolver: HostResolver,
    private readonly config: AppConfig,
  ) {}

  async check(raw: string): Promise<CheckedDestination> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new DestinationRefused('is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new DestinationRefused('must be http or https');
    if (url.username || url.password) throw new DestinationRefused('must not carry credentials');
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const literal = isIP(host);
    let addresses: ResolvedAddress[];
    if (literal) {
      addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
    } else {
      try {
        addresses = await this.resolver.resolve(host);
      } catch {
        addresses = [];
      }
      if (!addresses.length) throw new DestinationRefused(`host ${host} does not resolve`);
    }
    const allowed = this.config.notifications.allowedNetworks;
    for (const { address } of addresses) {
      const refusal = refusalOf(address, allowed);
      if (refusal) {
        throw new DestinationRefused(
          literal
            ? `points at ${address}, which ${refusal} that notifications may not reach`
            : `host ${host} resolves to ${address}, which ${refusal} that notifications may not reach`,
        );
      }
    }
    return { url, address: addresses[0].address, family: addresses[0].family };
  }
}
