import { newId, randomBase62 } from './ids';

describe('ids', () => {
  it('builds ids from the prefix and 16 base62 characters', () => {
    expect(newId('polset')).toMatch(/^polset-[0-9A-Za-z]{16}$/);
  });

  it('does not repeat itself across many draws, across many refills of its block of random bytes', () => {
    const seen = new Set(Array.from({ length: 5000 }, () => randomBase62(16)));
    expect(seen.size).toBe(5000);
    for (const id of seen) expect(id).toMatch(/^[0-9A-Za-z]{16}$/);
  });

  it('draws every character about equally often', () => {
    const counts = new Map<string, number>();
    for (const c of randomBase62(62_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 1,000 expected each, standard deviation ~31: outside 750-1,250 is beyond eight of them.
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(750);
      expect(n).toBeLessThan(1250);
    }
  });

  it('gives lengths exactly as asked, including none', () => {
    expect(randomBase62(0)).toBe('');
    expect(randomBase62(1)).toHaveLength(1);
    expect(randomBase62(48)).toHaveLength(48);
  });
});
