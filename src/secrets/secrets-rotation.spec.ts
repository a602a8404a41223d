import { randomBytes } from 'node:crypto';
import { KeyRing } from './key-ring';
import { SecretsRotation } from './secrets-rotation';
import { Secrets } from './secrets.service';
import { WrappedKeyHolder, WrappedKeyHolders } from './wrapped-key-holders';

/** A column of wrapped keys in memory, as a module's table would hold it. */
function memoryHolder(name: string, rows: Map<string, string>): WrappedKeyHolder {
  return {
    name,
    batch: async (afterId, limit) =>
      [...rows]
        .filter(([id]) => id > afterId)
        .sort(([a], [b]) => a.localeCompare(b))
        .slice(0, limit)
        .map(([id, wrapped]) => ({ id, wrapped })),
    replace: async (id, from, to) => {
      if (rows.get(id) !== from) return false;
      rows.set(id, to);
      return true;
    },
  };
}

describe('SecretsRotation', () => {
  const [oldKey, newKey, lostKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];
  const before = new Secrets(KeyRing.of(oldKey));
  const lost = new Secrets(KeyRing.of(lostKey));

  it('re-wraps every data key it can under the current key and reports the ones it cannot', async () => {
    const files = new Map<string, string>();
    const values = new Map<string, string>();
    for (let i = 0; i < 450; i++)
      files.set(`sv-${String(i).padStart(4, '0')}`, before.encrypting('f').wrappedKey);
    files.set('sv-lost', lost.encrypting('f').wrappedKey);
    values.set('wsout-1', before.seal('secret value', 'wsout-1'));
    const holders = new WrappedKeyHolders();
    holders.register(memoryHolder('state files', files));
    holders.register(memoryHolder('state version outputs', values));
    const after = new Secrets(KeyRing.of(newKey, [oldKey]));

    const report = await new SecretsRotation(after, holders).rotate();

    expect(report).toEqual({
      keyId: after.currentKeyId,
      holders: [
        { name: 'state files', rewrapped: 450, unreadable: { [lost.currentKeyId]: 1 } },
        { name: 'state version outputs', rewrapped: 1, unreadable: {} },
      ],
    });
    const onlyNew = new Secrets(KeyRing.of(newKey));
    expect(onlyNew.open(values.get('wsout-1')!, 'wsout-1').toString()).toBe('secret value');
    expect([...files.values()].filter((w) => onlyNew.keyIdOf(w) !== onlyNew.currentKeyId)).toHaveLength(1);
    expect((await new SecretsRotation(after, holders).rotate()).holders[0].rewrapped).toBe(0);
  });
});
