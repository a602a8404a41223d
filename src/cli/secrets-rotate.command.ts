import { SecretsRotation } from '../secrets/secrets-rotation';
import { withApp } from './app-context';
import { CliContext, Output, UsageError } from './io';

/** `secrets:rotate`: see docs/state.md, "Rotating the encryption key". */
export async function secretsRotate(args: string[], io: Output, context: CliContext): Promise<void> {
  if (args.length) throw new UsageError('secrets:rotate takes no arguments');
  const report = await withApp(context, (app) => app.get(SecretsRotation).rotate());
  const unreadable = new Map<string, number>();
  for (const holder of report.holders) {
    io.out(`${holder.name}: ${holder.rewrapped} data keys re-wrapped under master key ${report.keyId}`);
    for (const [keyId, count] of Object.entries(holder.unreadable)) {
      unreadable.set(keyId, (unreadable.get(keyId) ?? 0) + count);
    }
  }
  if (unreadable.size) {
    const list = [...unreadable].map(([keyId, count]) => `${count} under ${keyId}`).join(', ');
    throw new Error(
      `data keys wrapped by master keys this process does not hold were left as they are (${list}); ` +
        'add those keys to ENCRYPTION_EXTRA_KEYS and run secrets:rotate again before removing any key',
    );
  }
  io.out(`every data key is wrapped by master key ${report.keyId}; the other keys may be removed`);
}
