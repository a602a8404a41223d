import { countPlan, hourOf } from './audit-counts';

const at = (iso: string) => new Date(iso);
const plan = (iso: string) => {
  const p = countPlan(at(iso));
  return { daysFrom: p.daysFrom.toISOString(), hoursFrom: p.hoursFrom.toISOString(), partial: p.partial };
};

describe('the plan of an audit trail total since an instant', () => {
  it('counts the events of the first half of an hour before since and takes them from the hour', () => {
    expect(plan('2026-09-29T10:14:59.999Z')).toEqual({
      daysFrom: '2026-09-30T00:00:00.000Z',
      hoursFrom: '2026-09-29T10:00:00.000Z',
      partial: 'subtract',
    });
  });

  it('counts the events of the second half of an hour after since and sums the hours after it', () => {
    expect(plan('2026-09-29T10:30:00.000Z')).toEqual({
      daysFrom: '2026-09-30T00:00:00.000Z',
      hoursFrom: '2026-09-29T11:00:00.000Z',
      partial: 'add',
    });
  });

  it('takes the hour that starts at since and only the events at since itself out of it', () => {
    expect(plan('2026-09-29T10:00:00.000Z')).toEqual({
      daysFrom: '2026-09-30T00:00:00.000Z',
      hoursFrom: '2026-09-29T10:00:00.000Z',
      partial: 'subtract',
    });
  });

  it('reads whole days from the day that starts at since, and no hours before it', () => {
    expect(plan('2026-09-29T00:00:00.000Z')).toEqual({
      daysFrom: '2026-09-29T00:00:00.000Z',
      hoursFrom: '2026-09-29T00:00:00.000Z',
      partial: 'subtract',
    });
  });

  it('reads whole days from the next midnight when since is late in the last hour of a day', () => {
    expect(plan('2026-09-29T23:45:00.000Z')).toEqual({
      daysFrom: '2026-09-30T00:00:00.000Z',
      hoursFrom: '2026-09-30T00:00:00.000Z',
      partial: 'add',
    });
  });

  it('leaves no instant uncounted or counted twice: the parts meet at hoursFrom and daysFrom', () => {
    let t = Date.parse('2026-09-28T22:00:00.000Z');
    for (let i = 0; i < 2_000; i++, t += 97_531) {
      const since = new Date(t);
      const p = countPlan(since);
      expect(p.daysFrom.getTime() % 86_400_000).toBe(0);
      expect(p.hoursFrom.getTime() % 3_600_000).toBe(0);
      expect(p.daysFrom.getTime()).toBeGreaterThanOrEqual(p.hoursFrom.getTime());
      expect(p.daysFrom.getTime() - p.hoursFrom.getTime()).toBeLessThan(86_400_000);
      if (p.partial === 'add') {
        expect(p.hoursFrom.getTime()).toBe(hourOf(since).getTime() + 3_600_000);
        expect(t - hourOf(since).getTime()).toBeGreaterThanOrEqual(1_800_000);
      } else {
        expect(p.hoursFrom.getTime()).toBe(hourOf(since).getTime());
        expect(t - p.hoursFrom.getTime()).toBeLessThan(1_800_000);
      }
    }
  });
});
