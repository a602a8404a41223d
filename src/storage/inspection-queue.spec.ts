import { InspectionQueue, InspectionsBusy, QueueTicket } from './inspection-queue';

/** Whether the ticket's turn has come, after the promise callbacks pending now have run. */
async function started(ticket: QueueTicket): Promise<boolean> {
  let yes = false;
  void ticket.turn.then(() => (yes = true));
  await new Promise((resolve) => setImmediate(resolve));
  return yes;
}

/** The order in which the tickets' turns come, as `leave` is called on the running ones. */
function order(tickets: Record<string, QueueTicket>): string[] {
  const seen: string[] = [];
  for (const [name, ticket] of Object.entries(tickets)) void ticket.turn.then(() => seen.push(name));
  return seen;
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('inspection queue', () => {
  it('runs as many inspections as there are workers and makes the next wait', async () => {
    const queue = new InspectionQueue({ running: 2, perOwner: 10, waiting: 10 });
    const a = queue.enter('org-a');
    const b = queue.enter('org-b');
    const c = queue.enter('org-c');
    expect([await started(a), await started(b), await started(c)]).toEqual([true, true, false]);
    a.leave();
    expect(await started(c)).toBe(true);
  });

  it("refuses an organization's inspection past its bound with 429, and takes it again once one ends", () => {
    const queue = new InspectionQueue({ running: 1, perOwner: 2, waiting: 10 });
    const first = queue.enter('org-a');
    queue.enter('org-a');
    let refusal: unknown;
    try {
      queue.enter('org-a');
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(InspectionsBusy);
    expect(refusal).toMatchObject({
      kind: 'rate-limited',
      retryAfterSeconds: 5,
      items: [
        { detail: 'This organization already has 2 archive inspections under way; try again in 5 seconds' },
      ],
    });
    // Another organization is not held to org-a's bound.
    expect(() => queue.enter('org-b')).not.toThrow();
    first.leave();
    expect(() => queue.enter('org-a')).not.toThrow();
  });

  it('refuses with 503 once the queue holds its bound of waiting inspections', () => {
    const queue = new InspectionQueue({ running: 1, perOwner: 10, waiting: 2 });
    queue.enter('org-a');
    queue.enter('org-b');
    queue.enter('org-c');
    expect(() => queue.enter('org-d')).toThrow(
      expect.objectContaining({
        kind: 'unavailable',
        message: 'The server has 2 archive inspections waiting; try again in 5 seconds',
      }),
    );
  });

  it('gives a free worker to the organization served longest ago, not in arrival order', async () => {
    const queue = new InspectionQueue({ running: 1, perOwner: 10, waiting: 10 });
    const running = queue.enter('hostile');
    const tickets = {
      hostile1: queue.enter('hostile'),
      hostile2: queue.enter('hostile'),
      hostile3: queue.enter('hostile'),
      other1: queue.enter('other'),
      third1: queue.enter('third'),
      other2: queue.enter('other'),
    };
    const seen = order(tickets);
    const expected = ['other1', 'third1', 'hostile1', 'other2', 'hostile2', 'hostile3'] as const;
    running.leave();
    for (const name of expected) {
      await flush();
      tickets[name].leave();
    }
    await flush();
    expect(seen).toEqual(expected);
  });

  it('prefers an organization with nothing running over one with an inspection running', async () => {
    const queue = new InspectionQueue({ running: 2, perOwner: 10, waiting: 10 });
    const a1 = queue.enter('org-a');
    queue.enter('org-b');
    const tickets = { a2: queue.enter('org-a'), b2: queue.enter('org-b'), c1: queue.enter('org-c') };
    const seen = order(tickets);
    // org-a's worker frees: org-c, with nothing running, goes before org-a and org-b.
    a1.leave();
    await flush();
    expect(seen).toEqual(['c1']);
  });

  it('lets a waiting inspection leave (past its time cap) without a turn, freeing its places', async () => {
    const queue = new InspectionQueue({ running: 1, perOwner: 2, waiting: 1 });
    const running = queue.enter('org-a');
    const waiting = queue.enter('org-a');
    waiting.leave();
    waiting.leave();
    // Its place in the queue and under org-a's bound are free again.
    const next = queue.enter('org-a');
    running.leave();
    expect(await started(waiting)).toBe(false);
    expect(await started(next)).toBe(true);
  });
});
