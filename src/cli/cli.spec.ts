import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { USAGE } from './cli';

describe('the CLI help', () => {
  it('names only environment variables the server reads (each one listed in .env.example)', () => {
    const listed = new Set(
      readFileSync(join(__dirname, '../../.env.example'), 'utf8')
        .split('\n')
        .map((line) => /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
        .filter((name): name is string => name !== undefined),
    );
    const named = [...USAGE.matchAll(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g)].map((m) => m[0]);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !listed.has(name))).toEqual([]);
  });
});
