import { isoMillis, isoSecondsOffset } from './timestamps';

describe('timestamps', () => {
  const at = new Date('2019-06-21T21:29:48.523Z');

  it('writes created-at with milliseconds and Z', () => {
    expect(isoMillis(at)).toBe('2019-06-21T21:29:48.523Z');
    expect(isoMillis(at.toISOString() as unknown as Date)).toBe('2019-06-21T21:29:48.523Z');
    expect(isoMillis(null)).toBeNull();
    expect(isoMillis(undefined)).toBeNull();
  });

  it('writes status timestamps in whole seconds with +00:00', () => {
    expect(isoSecondsOffset(at)).toBe('2019-06-21T21:29:48+00:00');
    expect(isoSecondsOffset(new Date('2019-06-21T21:29:48.000Z'))).toBe('2019-06-21T21:29:48+00:00');
    expect(isoSecondsOffset(at.getTime() as unknown as Date)).toBe('2019-06-21T21:29:48+00:00');
    expect(isoSecondsOffset(new Date('+010000-01-01T00:00:00.999Z'))).toBe('+010000-01-01T00:00:00+00:00');
    expect(isoSecondsOffset(null)).toBeNull();
  });
});
