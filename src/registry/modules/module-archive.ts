import type { ArchiveEntry } from '../../storage/archive-inspector';

/** The archive root as tar writes it: `main.tf` and `./main.tf` are both at the root. */
function rootName(path: string): string | null {
  const parts = path
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  return parts.length === 1 ? parts[0] : null;
}

/** A Terraform configuration file by its name, as the tool reads them: `*.tf` or `*.tf.json`. */
export function isConfigurationFile(name: string): boolean {
  return /\.tf(\.json)?$/.test(name) && !name.startsWith('.');
}

/**
 * A module archive is the module itself at the archive root (`tar -czf m.tar.gz -C module .`),
 * holding at least one regular `.tf` or `.tf.json` file there. Subdirectories (submodules,
 * examples) are kept as they are. Runs on an archive the shared inspection already found safe.
 */
export function moduleArchiveProblem(entries: readonly ArchiveEntry[]): string | null {
  const atRoot = entries.some((e) => {
    const name = e.type === 'file' ? rootName(e.path) : null;
    return name !== null && isConfigurationFile(name);
  });
  return atRoot ? null : 'the archive has no .tf or .tf.json file at its root';
}
