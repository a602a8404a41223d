import { OutboundConnector } from '../../src/notifications/outbound/outbound-connector';
import { HostResolver, ResolvedAddress } from '../../src/notifications/outbound/destination-guard';
import { Actor } from '../helpers/fixtures';
import { ProviderOverride, startApp, TestApp } from '../helpers/test-app';

/**
 * The real connector behind a tripwire: it records every destination a delivery connects to, and
 * once armed fails the test on any connection (the refusals must never get that far).
 */
export class Tripwire {
  readonly connections: string[] = [];
  armed = false;
  private readonly real = new OutboundConnector();

  readonly connector = {
    send: (...args: Parameters<OutboundConnector['send']>) => {
      this.connections.push(args[0].address);
      if (this.armed) throw new Error(`a connection to ${args[0].address} was attempted`);
      return this.real.send(...args);
    },
  };
}

/** Host names tests resolve to chosen addresses; any other name is resolved for real. */
export const FAKE_HOSTS: Record<string, ResolvedAddress[]> = {
  'internal.example.test': [{ address: '10.1.2.3', family: 4 }],
  'metadata.example.test': [{ address: '169.254.169.254', family: 4 }],
  'mapped.example.test': [{ address: '::ffff:127.0.0.2', family: 6 }],
  'ula.example.test': [{ address: 'fd12:3456::1', family: 6 }],
  'mixed.example.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '192.168.0.10', family: 4 },
  ],
  'receiver.example.test': [{ address: '127.0.0.1', family: 4 }],
};

const fakeResolver = {
  resolve: async (host: string): Promise<ResolvedAddress[]> =>
    FAKE_HOSTS[host] ?? new HostResolver().resolve(host),
};

/** An app whose deliveries may reach 127.0.0.1 only, retry quickly and poll often. */
export async function startNotificationApp(
  tripwire: Tripwire,
  env: Record<string, string> = {},
  overrides: ProviderOverride[] = [],
): Promise<TestApp> {
  return startApp(
    {
      NOTIFICATION_ALLOWED_NETWORKS: '127.0.0.1/32',
      NOTIFICATION_POLL_MS: '50',
      NOTIFICATION_RETRY_BASE_MS: '50',
      NOTIFICATION_RETRY_MAX_MS: '200',
      NOTIFICATION_TIMEOUT_MS: '2000',
      ...env,
    },
    [
      { provide: OutboundConnector, useValue: tripwire.connector },
      { provide: HostResolver, useValue: fakeResolver },
      ...overrides,
    ],
  );
}

export function ncBody(attributes: Record<string, unknown>, type = 'notification-configurations') {
  return { data: { type, attributes } };
}

export async function createConfiguration(
  actor: Actor,
  workspaceId: string,
  attributes: Record<string, unknown>,
): Promise<string> {
  const res = await actor.api
    .post(`/api/v2/workspaces/${workspaceId}/notification-configurations`, ncBody(attributes))
    .expect(201);
  return res.body.data.id as string;
}
