/** Longest path or link target accepted, as PATH_MAX on Linux. */
export const MAX_PATH_LENGTH = 4096;
/** Symbolic links followed in one resolution before giving up, as Linux's ELOOP limit. */
const MAX_HOPS = 40;
/** Steps taken in one resolution: bounds the work per entry whatever the links do. */
const MAX_STEPS = 8192;
/**
 * Steps of path resolution each entry of the entry-count cap pays for. Resolving an ordinary
 * archive takes a few steps per entry (one per path component); a chain of links takes steps in
 * proportion to its length, every time a path goes through it.
 */
export const STEPS_PER_ENTRY = 32;

export type Resolution = { ok: true; parts: string[] } | { ok: false; why: LinkProblem };
/** `costly`: the archive's steps of resolution ran past what its entry-count cap pays for. */
export type LinkProblem = 'escapes' | 'loops' | 'costly';

/** One directory or link of the tree an extracting tar builds; only links and their ancestors are kept. */
class Node {
  readonly children = new Map<string, Node>();
  /** A link's target as written, split once (every hop through it reuses the parts). */
  link?: LinkTarget;
}

interface LinkTarget {
  text: string;
  parts: string[];
  absolute: boolean;
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
 * by its target (relative to the link's directory), `..` climbs the resolved path.
 *
 * Every resolution counts its steps (a component walked, a link followed, and each component the
 * link's target adds) against one budget for the whole archive, so the work is bounded by the
 * entry-count cap however the links chain; MAX_STEPS and MAX_HOPS bound one resolution as a
 * filesystem would. Memory is bounded by the links' own paths.
 */
export class LinkTree {
  private readonly root = new Node();
  private readonly links = new Map<Node, string[]>();
  /** Steps taken by every resolution so far. */
  steps = 0;

  constructor(private readonly maxSteps: number) {}

  /**
   * Where `path` (relative to the archive root) lands. `followLast` also follows a link in the
   * final component, as reading through a link does; creating an entry does not.
   */
  resolve(path: string | string[], followLast: boolean): Resolution {
    const pending = (typeof path === 'string' ? pathParts(path) : [...path]).reverse();
    const out: string[] = [];
    const nodes: (Node | undefined)[] = [this.root];
    let steps = 0;
    let hops = 0;
    while (pending.length > 0) {
      if (++steps > MAX_STEPS) return { ok: false, why: 'loops' };
      if (++this.steps > this.maxSteps) return { ok: false, why: 'costly' };
      const part = pending.pop() as string;
      if (part === '..') {
        if (out.length === 0) return { ok: false, why: 'escapes' };
        out.pop();
        nodes.pop();
        continue;
      }
      const node = nodes[nodes.length - 1]?.children.get(part);
      if (node?.link && (followLast || pending.length > 0)) {
        if (++hops > MAX_HOPS) return { ok: false, why: 'loops' };
        if (node.link.absolute) return { ok: false, why: 'escapes' };
        steps += node.link.parts.length;
        this.steps += node.link.parts.length;
        for (let i = node.link.parts.length - 1; i >= 0; i--) pending.push(node.link.parts[i]);
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
    node.link = {
      text: target,
      parts: pathParts(target),
      absolute: isAbsolutePath(target.replace(/\\/g, '/')),
    };
    this.links.set(node, parts);
  }

  /** The link target found at resolved location `parts`, if that place is a symbolic link. */
  linkAt(parts: string[]): string | undefined {
    let node: Node | undefined = this.root;
    for (const part of parts) node = node?.children.get(part);
    return node === this.root ? undefined : node?.link?.text;
  }

  /** Where the link at `parts` with `target` leads, read through every link known now. */
  follow(parts: string[], target: string): Resolution {
    if (isAbsolutePath(target.replace(/\\/g, '/'))) return { ok: false, why: 'escapes' };
    return this.resolve([...parts.slice(0, -1), ...pathParts(target)], true);
  }

  /**
   * Every recorded link read again against the final tree: a later link can redirect a component
   * an earlier link's target climbs out of (`x/y/l -> b/../../z`, then `x/y/b -> ../..`).
   */
  firstBrokenLink(): { parts: string[]; why: LinkProblem } | null {
    for (const [node, parts] of this.links) {
      const link = node.link as LinkTarget;
      const resolution = link.absolute
        ? ({ ok: false, why: 'escapes' } as const)
        : this.resolve([...parts.slice(0, -1), ...link.parts], true);
      if (!resolution.ok) return { parts, why: resolution.why };
    }
    return null;
  }
}
