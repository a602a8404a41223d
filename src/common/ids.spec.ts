import { newId, randomBase62 } from './ids';

describe('ids', () => {
  it('builds ids from the prefix and 16 base62 characters', () => {
    expect(newId('polset')).toMatch(/^polset-[0-9A-Za-z]{16}$/);
  });

  it('does not repeat itself across many draws', () => {
    const seen = new Set(Array.from({ length: 5000 }, () => randomBase62(16)));
    expect(seen.size).toBe(5000);
  });
});
