/** Longest path or link target accepted, as PATH_MAX on Linux. */
export const MAX_PATH_LENGTH = 4096;
/** Symbolic links followed in one resolution before giving up, as Linux's ELOOP limit. */
const MAX_HOPS = 40;
/** Path components walked in one resolution: bounds the work per entry whatever the links do. */
const MAX_STEPS = 8192;

export type Resolution = { ok: true; parts: string[] } | { ok: false; why: 'escapes' | 'loops' };

/** One directory or link of the tree an extracting tar builds; only links and their ancestors are kept. */
class Node {
  readonly children = new Map<string, Node>();
  target?: string;
}

export const isAbsolutePath = (path: string) => path.startsWith('/') || /^[A-Za-z]:/.test(path);

/**
 * The components of a path, without empty and `.` ones. Backslashes count as separators, so `..\`
 * cannot slip past a check on a host that reads them so.
 */
export const pathParts = (path: string) =>
  path
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.');

/**
 * The symbolic links an archive created so far, and path resolution through them the way a
 * filesystem resolves paths while tar extracts: each parent component that is a link is replaced
 * by its target (relative to the link's directory), `..` climbs the resolved path. Cost per
 * resolution is bounded by MAX_STEPS and MAX_HOPS, and memory by the links' own paths.
 */
export class LinkTree {
  private readonly root = new Node();
  private readonly links = new Map<Node, string[]>();

  /**
   * Where `path` (relative to the archive root) lands. `followLast` also follows a link in the
   * final component, as reading through a link does; creating an entry does not.
   */
  resolve(path: string, followLast: boolean): Resolution {
    const pending = pathParts(path).reverse();
    const out: string[] = [];
    const nodes: (Node | undefined)[] = [this.root];
    let steps = 0;
    let hops = 0;
    while (pending.length > 0) {
      if (++steps > MAX_STEPS) return { ok: false, why: 'loops' };
      const part = pending.pop() as string;
      if (part === '..') {
        if (out.length === 0) return { ok: false, why: 'escapes' };
        out.pop();
        nodes.pop();
        continue;
      }
      const node = nodes[nodes.length - 1]?.children.get(part);
      if (node?.target !== undefined && (followLast || pending.length > 0)) {
        if (++hops > MAX_HOPS) return { ok: false, why: 'loops' };
        if (isAbsolutePath(node.target)) return { ok: false, why: 'escapes' };
        pending.push(...pathParts(node.target).reverse());
        continue;
      }
      out.push(part);
      nodes.push(node);
    }
    return { ok: true, parts: out };
  }

  /** Records a symbolic link at resolved location `parts`; a later link at the same place replaces it. */
  addLink(parts: string[], target: string): void {
    let node = this.root;
    for (const part of parts) {
      let child = node.children.get(part);
      if (!child) {
        child = new Node();
        node.children.set(part, child);
      }
      node = child;
    }
    node.target = target;
    this.links.set(node, parts);
  }

  /** The link target found at resolved location `parts`, if that place is a symbolic link. */
  linkAt(parts: string[]): string | undefined {
    let node: Node | undefined = this.root;
    for (const part of parts) node = node?.children.get(part);
    return node === this.root ? undefined : node?.target;
  }

  /** Where the link at `parts` with `target` leads, read through every link known now. */
  follow(parts: string[], target: string): Resolution {
    if (isAbsolutePath(target.replace(/\\/g, '/'))) return { ok: false, why: 'escapes' };
    return this.resolve([...parts.slice(0, -1), target].join('/'), true);
  }

  /**
   * Every recorded link read again against the final tree: a later link can redirect a component
   * an earlier link's target climbs out of (`x/y/l -> b/../../z`, then `x/y/b -> ../..`).
   */
  firstBrokenLink(): { parts: string[]; why: 'escapes' | 'loops' } | null {
    for (const [node, parts] of this.links) {
      const resolution = this.follow(parts, node.target as string);
      if (!resolution.ok) return { parts, why: resolution.why };
    }
    return null;
  }
}
