import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import type { OrganizationsService } from '../organizations/organizations.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import type { NotificationConfigurationEntity } from './entities/notification-configuration.entity';
import type { NotificationConfigurationsRepository } from './notification-configurations.repository';
import type { DueDelivery, NotificationDeliveriesRepository } from './notification-deliveries.repository';
import { NotificationDeliveryWorker } from './notification-delivery.worker';
import type { EventNames, RunEvent } from './notification-rules';
import type { Attempt, NotificationSender } from './notification-sender';

const EVENT: RunEvent = {
  runId: 'run-1',
  runMessage: 'm',
  runCreatedAt: '2026-01-01T00:00:00.000Z',
  runCreatedById: 'user-creator',
  runUpdatedById: 'user-actor',
  runStatus: 'discarded',
  runUpdatedAt: '2026-01-01T00:00:01.000Z',
  workspaceId: 'ws-1',
  trigger: 'run:completed',
  triggerType: 'run:completed',
  message: 'Run Discarded',
};

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An outbox of `count` due deliveries of one event, each to a configuration of its own. */
function harness(count: number, concurrency: number, opts: { gated?: boolean } = {}) {
  /** With `gated`: each send, and each due lookup, waits until the test lets it go. */
  const gates = { sends: [] as (() => void)[], due: [] as (() => void)[] };
  const gate = (list: (() => void)[]) =>
    opts.gated ? new Promise<void>((resolve) => list.push(resolve)) : Promise.resolve();
  let inFlight = 0;
  const rows = Array.from({ length: count }, (_, i) => ({
    id: `ncd-${String(i).padStart(3, '0')}`,
    configurationId: `nc-${i}`,
    attempts: 0,
    status: 'due',
  }));
  const calls = { due: 0, claim: 0, configurations: 0, workspaces: 0, users: 0, organizations: 0 };
  const sent: { id: string; names: EventNames }[] = [];
  const deliveries = {
    due: async (_now: Date, limit: number): Promise<DueDelivery[]> => {
      calls.due++;
      // A lookup takes a while: sends in flight end meanwhile.
      await tick();
      await gate(gates.due);
      return rows
        .filter((r) => r.status === 'due')
        .slice(0, limit)
        .map((r) => ({ ...r, event: JSON.stringify(EVENT), dueAt: new Date(0) }));
    },
    claim: async (_m: unknown, due: DueDelivery[]) => {
      calls.claim++;
      await tick();
      return due.flatMap((d) => {
        const row = rows.find((r) => r.id === d.id)!;
        if (row.status !== 'due') return [];
        row.status = 'sending';
        row.attempts++;
        return [{ ...d, attempts: row.attempts }];
      });
    },
    settle: async (_m: unknown, id: string, _attempts: number, changes: { status: string }) => {
      rows.find((r) => r.id === id)!.status = changes.status;
      return true;
    },
  };
  const configurations = {
    findByIds: async (ids: string[]) => {
      calls.configurations++;
      return ids.map(
        (id) => ({ id, enabled: true, deliveryResponses: '[]' }) as NotificationConfigurationEntity,
      );
    },
    lock: async () => true,
    findById: async (id: string) => ({ id, deliveryResponses: '[]' }),
    update: async () => undefined,
  };
  const sender = {
    tokenOf: () => null,
    send: async (_nc: unknown, _t: unknown, _e: unknown, names: EventNames, id: string): Promise<Attempt> => {
      inFlight++;
      await tick();
      await gate(gates.sends);
      inFlight--;
      sent.push({ id, names });
      return {
        outcome: 'delivered',
        error: null,
        response: { url: null, body: '', code: '200', headers: {}, 'sent-at': '', successful: 'true' },
      };
    },
  };
  const workspaces = {
    findByIds: async () => {
      calls.workspaces++;
      return [{ id: 'ws-1', name: 'prod', organizationId: 'org-1' }];
    },
  };
  const users = {
    findByIds: async (ids: string[]) => {
      calls.users++;
      return ids.map((id) => ({ id, username: id.replace('user-', '') }));
    },
  };
  const organizations = {
    findByIds: async () => {
      calls.organizations++;
      return [{ id: 'org-1', name: 'acme' }];
    },
  };
  const config = {
    notifications: {
      concurrency,
      timeoutMs: 1000,
      maxAttempts: 3,
      retryBaseMs: 10,
      retryMaxMs: 100,
      pollMs: 1000,
    },
    baseUrl: 'https://plinth.example.com',
    port: 3000,
  };
  const ds = { options: { type: 'mysql' }, transaction: (work: (m: unknown) => unknown) => work({}) };
  const worker = new NotificationDeliveryWorker(
    deliveries as unknown as NotificationDeliveriesRepository,
    configurations as unknown as NotificationConfigurationsRepository,
    sender as unknown as NotificationSender,
    workspaces as unknown as WorkspacesService,
    users as unknown as UsersService,
    organizations as unknown as OrganizationsService,
    config as unknown as AppConfig,
    { now: () => new Date(1_000) },
    ds as unknown as DataSource,
  );
  const settled = async () => {
    // Without the timer (never started here), only the worker's own polls can send the rest.
    for (let i = 0; i < 500 && rows.some((r) => r.status !== 'delivered'); i++) await tick();
    return rows.filter((r) => r.status === 'delivered').length;
  };
  return { worker, rows, calls, sent, settled, gates, inFlight: () => inFlight };
}

describe('NotificationDeliveryWorker', () => {
  it('fills every slot that frees while a poll runs, without waiting for the next tick', async () => {
    const h = harness(12, 4, { gated: true });
    const first = h.worker.poll();
    for (let i = 0; i < 3; i++) await tick();
    h.gates.due.shift()!();
    expect(await first).toBe(4);
    for (let i = 0; i < 5; i++) await tick();
    expect(h.gates.sends).toHaveLength(4);
    // One send ends: its slot starts a poll, whose lookup is slow…
    h.gates.sends.shift()!();
    for (let i = 0; i < 5; i++) await tick();
    expect(h.gates.due).toHaveLength(1);
    // …and the three other sends end while it runs.
    h.gates.sends.splice(0).forEach((go) => go());
    for (let i = 0; i < 5; i++) await tick();
    h.gates.due.shift()!();
    for (let i = 0; i < 10; i++) {
      await tick();
      h.gates.due.splice(0).forEach((go) => go());
    }
    // Every freed slot is busy again: the poll went round once more for the slots freed meanwhile.
    expect(h.inFlight()).toBe(4);
    expect(h.gates.sends).toHaveLength(4);
    expect(h.rows.filter((r) => r.status === 'delivered')).toHaveLength(4);
  });

  it('sends a backlog through to the end from one poll', async () => {
    const h = harness(40, 4);
    await h.worker.poll();
    expect(await h.settled()).toBe(40);
    expect(new Set(h.sent.map((s) => s.id)).size).toBe(40);
  });

  it('claims a batch in one go and reads its configurations and names once for the batch', async () => {
    const h = harness(10, 10);
    expect(await h.worker.poll()).toBe(10);
    expect(await h.settled()).toBe(10);
    expect(h.calls).toEqual({
      due: 2,
      claim: 1,
      configurations: 1,
      workspaces: 1,
      users: 1,
      organizations: 1,
    });
    expect(h.sent[0].names).toEqual({
      workspaceName: 'prod',
      organizationName: 'acme',
      createdBy: 'creator',
      updatedBy: 'actor',
      runUrl: 'https://plinth.example.com/api/v2/runs/run-1',
    });
  });
});
