import { Violations } from '../common/errors/domain-error';
import { UpdateToolVersionAttributes } from './dto/tool-version-attributes.dto';
import { ToolVersionEntity } from './entities/tool-version.entity';
import { applyChanges, changesFrom, sameValues } from './tool-version.rules';
import { newToolVersion } from './tool-versions.service';

function entry(fields: Partial<ToolVersionEntity> = {}): ToolVersionEntity {
  return Object.assign(
    newToolVersion('engine-versions'),
    { version: '1.0.0', url: 'https://e.com', sha: 'a' },
    fields,
  );
}

function details(v: Violations): string[] {
  try {
    v.throwIfAny();
    return [];
  } catch (err) {
    return (err as { items: { detail: string }[] }).items.map((i) => i.detail);
  }
}

const attrs = (a: Record<string, unknown>) => Object.assign(new UpdateToolVersionAttributes(), a);

describe('catalog entry rules', () => {
  it('gives a new entry the contract defaults', () => {
    expect(newToolVersion('policy-engine-versions')).toMatchObject({
      id: expect.stringMatching(/^tool-[0-9A-Za-z]{16}$/),
      catalog: 'policy-engine-versions',
      deprecated: false,
      deprecatedReason: null,
      official: false,
      enabled: true,
      beta: false,
    });
  });

  it('turns only the sent attributes into changes, lower-casing the checksum', () => {
    expect(changesFrom(attrs({ sha: 'ABC', enabled: false }))).toEqual({ sha: 'abc', enabled: false });
    expect(changesFrom(attrs({ 'deprecated-reason': '' }))).toEqual({ deprecatedReason: null });
    expect(changesFrom(attrs({}))).toEqual({});
  });

  it('keeps what the changes omit', () => {
    const e = entry({ official: true, beta: true });
    const v = new Violations();
    applyChanges(e, { url: 'https://other.example.com' }, v);
    expect(e).toMatchObject({
      official: true,
      beta: true,
      url: 'https://other.example.com',
      version: '1.0.0',
    });
    expect(details(v)).toEqual([]);
  });

  it('refuses a reason for a version that is not deprecated', () => {
    const v = new Violations();
    applyChanges(entry(), { deprecatedReason: 'why' }, v);
    expect(details(v)).toEqual(['Deprecated reason can only be set on a deprecated version']);
  });

  it('accepts a reason given with deprecation or for a version already deprecated', () => {
    const v = new Violations();
    const fresh = entry();
    applyChanges(fresh, { deprecated: true, deprecatedReason: 'bug' }, v);
    const old = entry({ deprecated: true });
    applyChanges(old, { deprecatedReason: 'other bug' }, v);
    expect(details(v)).toEqual([]);
    expect(fresh.deprecatedReason).toBe('bug');
    expect(old.deprecatedReason).toBe('other bug');
  });

  it('drops the reason when the version is no longer deprecated', () => {
    const e = entry({ deprecated: true, deprecatedReason: 'bug' });
    const v = new Violations();
    applyChanges(e, { deprecated: false }, v);
    expect(e.deprecatedReason).toBeNull();
    expect(details(v)).toEqual([]);
  });

  it('compares entries by their values, not their identity or creation time', () => {
    const a = entry();
    expect(sameValues(a, Object.assign(entry(), { id: 'tool-x', createdAt: new Date(0) }))).toBe(true);
    expect(sameValues(a, entry({ beta: true }))).toBe(false);
  });
});
