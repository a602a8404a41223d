import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Page, pageOfAll } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { invalid, Violations } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import type { TagFilter } from '../common/jsonapi/query';
import { IdSubquery } from '../common/sql/id-subquery';
import { PageParams } from '../common/jsonapi/pagination';
import { newId } from '../common/ids';
import { ReservedTagKeysService } from '../reserved-tag-keys/reserved-tag-keys.service';
import { TagBindingEntity } from './entities/tag-binding.entity';
import {
  forbiddenOverrides,
  MAX_PROJECT_BINDINGS,
  MAX_WORKSPACE_BINDINGS,
  mergeTagBindings,
  readTagBindings,
  sameKey,
  TagBindingInput,
} from './tag-binding-rules';
import { TagBindingsRepository, TagScope } from './tag-bindings.repository';

/** A binding as a workspace sees it: its own, or inherited from its project (`inheritedFrom`). */
export interface EffectiveTagBinding {
  binding: TagBindingEntity;
  inheritedFrom: string | null;
}

/** The workspace facts the override rule needs, as they will be after the write. */
export interface WorkspaceTarget {
  id: string;
  organizationId: string;
  projectId: string;
}

export interface WorkspaceTagChange {
  /** The full list of the `tag-bindings` relationship, when the body carried it. */
  items?: TagBindingInput[];
  /** The project the workspace was in before this write; null when it is being created. */
  previousProjectId: string | null;
}

/**
 * Takes the row locks of the project or workspace whose bindings are written, through the module
 * that owns those rows: a workspace's lock takes the workspace row, then its project's row.
 */
export type TargetLock = (manager: EntityManager) => Promise<unknown>;

type Owner = 'project' | 'workspace';

const RELATIONSHIP_POINTER = '/data/relationships/tag-bindings';

const LIMITS: Record<Owner, { max: number; detail: string }> = {
  project: {
    max: MAX_PROJECT_BINDINGS,
    detail: `A project can have at most ${MAX_PROJECT_BINDINGS} tag bindings`,
  },
  workspace: {
    max: MAX_WORKSPACE_BINDINGS,
    detail: `A workspace can have at most ${MAX_WORKSPACE_BINDINGS} tag bindings of its own`,
  },
};

const toInput = (b: TagBindingEntity): TagBindingInput => ({ key: b.key, value: b.value });

function byKey<T>(keyOf: (x: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    const [x, y] = [keyOf(a).toLowerCase(), keyOf(b).toLowerCase()];
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

function checkLimit(owner: Owner, count: number, pointer: string): void {
  if (count > LIMITS[owner].max) throw invalid(LIMITS[owner].detail, pointer);
}

/**
 * Key/value tags of projects and workspaces, and the rule that links them: a workspace inherits
 * its project's bindings and may override them, except keys the organization reserved with
 * `disable-overrides`. Every write of bindings first takes the caller's TargetLock (the workspace
 * row, if any, then the project row), so a project change and a workspace override of the same key
 * cannot interleave.
 */
/** A sort key's value of an effective binding: the binding's own property. */
const bindingValue = (e: EffectiveTagBinding, property: string): unknown =>
  (e.binding as unknown as Record<string, unknown>)[property];

@Injectable()
export class TagBindingsService {
  constructor(
    private readonly repo: TagBindingsRepository,
    private readonly reserved: ReservedTagKeysService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** The validated `tag-bindings` relationship of a project or workspace body; undefined when absent. */
  fromRelationship(body: ParsedBody<object>, owner: Owner): TagBindingInput[] | undefined {
    if (!body.hasRelationship('tag-bindings')) return undefined;
    const rel = body.relationships['tag-bindings'];
    if (typeof rel !== 'object' || rel === null || !('data' in rel)) {
      throw invalid('Relationship tag-bindings must have data', RELATIONSHIP_POINTER);
    }
    const items = readTagBindings(rel.data, `${RELATIONSHIP_POINTER}/data`);
    checkLimit(owner, items.length, RELATIONSHIP_POINTER);
    return items;
  }

  // Reads. A target holds at most ten bindings (twenty effective), so one query reads them all,
  // the order is made here (the same on both dialects) and the page is cut from it.

  async list(scope: TagScope, page: PageParams): Promise<Page<TagBindingEntity>> {
    return pageOfAll(await this.sorted(scope), page);
  }

  async effectiveForProject(projectId: string, page: PageParams): Promise<Page<EffectiveTagBinding>> {
    const own = await this.sorted({ projectId });
    return pageOfAll(
      own.map((binding) => ({ binding, inheritedFrom: null })),
      page,
      bindingValue,
    );
  }

  /** The workspace's own bindings plus the project's bindings it does not override. */
  async effectiveForWorkspace(
    ws: { id: string; projectId: string },
    page: PageParams,
  ): Promise<Page<EffectiveTagBinding>> {
    const [own, inherited] = await Promise.all([
      this.repo.all({ workspaceId: ws.id }),
      this.repo.all({ projectId: ws.projectId }),
    ]);
    const all: EffectiveTagBinding[] = [
      ...own.map((binding) => ({ binding, inheritedFrom: null })),
      ...inherited
        .filter((i) => !own.some((o) => sameKey(o.key, i.key)))
        .map((binding) => ({ binding, inheritedFrom: ws.projectId })),
    ];
    return pageOfAll(all.sort(byKey((e) => e.binding.key)), page, bindingValue);
  }

  /**
   * A condition on workspace rows (`id`, `projectId`: their column expressions) that holds when
   * each filter matches one of the workspace's effective bindings: its own, or its project's that
   * it does not override.
   */
  workspacesTagged(id: string, projectId: string, filters: readonly TagFilter[]): IdSubquery {
    const parts: string[] = [];
    let parameters: Record<string, unknown> = {};
    filters.forEach((f, i) => {
      const own = this.repo.idsBound('workspace_id', f, `w${i}`);
      const overridden = this.repo.idsBound('workspace_id', f, `o${i}`, true);
      const inherited = this.repo.idsBound('project_id', f, `p${i}`);
      parts.push(
        `(${id} IN ${own.sql} OR (${projectId} IN ${inherited.sql} AND ${id} NOT IN ${overridden.sql}))`,
      );
      parameters = { ...parameters, ...own.parameters, ...overridden.parameters, ...inherited.parameters };
    });
    return { sql: parts.join(' AND '), parameters };
  }

  /** A condition on project rows (`id`: their id column) that holds when each filter matches a binding. */
  projectsTagged(id: string, filters: readonly TagFilter[]): IdSubquery {
    const parts: string[] = [];
    let parameters: Record<string, unknown> = {};
    filters.forEach((f, i) => {
      const bound = this.repo.idsBound('project_id', f, `p${i}`);
      parts.push(`${id} IN ${bound.sql}`);
      parameters = { ...parameters, ...bound.parameters };
    });
    return { sql: parts.join(' AND '), parameters };
  }

  /**
   * The effective bindings of many workspaces at once (two queries), for `include`: each
   * workspace's own bindings plus the project's it does not override, in key order.
   */
  async effectiveForWorkspaces(
    workspaces: readonly { id: string; projectId: string }[],
  ): Promise<Map<string, EffectiveTagBinding[]>> {
    const [own, inherited] = await Promise.all([
      this.repo.allOf(
        'workspaceId',
        workspaces.map((w) => w.id),
      ),
      this.repo.allOf(
        'projectId',
        workspaces.map((w) => w.projectId),
      ),
    ]);
    const out = new Map<string, EffectiveTagBinding[]>();
    for (const ws of workspaces) {
      const mine = own.filter((b) => b.workspaceId === ws.id);
      const all: EffectiveTagBinding[] = [
        ...mine.map((binding) => ({ binding, inheritedFrom: null })),
        ...inherited
          .filter((b) => b.projectId === ws.projectId && !mine.some((o) => sameKey(o.key, b.key)))
          .map((binding) => ({ binding, inheritedFrom: ws.projectId })),
      ];
      out.set(ws.id, all.sort(byKey((e) => e.binding.key)));
    }
    return out;
  }

  /** The bindings of many projects at once (one query), in key order, for `include`. */
  async effectiveForProjects(projectIds: readonly string[]): Promise<Map<string, EffectiveTagBinding[]>> {
    const rows = await this.repo.allOf('projectId', projectIds);
    const out = new Map<string, EffectiveTagBinding[]>();
    for (const id of projectIds) {
      out.set(
        id,
        rows
          .filter((b) => b.projectId === id)
          .sort(byKey((b) => b.key))
          .map((binding) => ({ binding, inheritedFrom: null })),
      );
    }
    return out;
  }

  // Writes made by project and workspace create/update, inside their transaction: `save`
  // writes the project or workspace row itself, between the locks and the bindings.

  async saveProject(
    manager: EntityManager,
    projectId: string,
    items: TagBindingInput[] | undefined,
    save: () => Promise<unknown>,
    lock: TargetLock,
  ): Promise<void> {
    if (items === undefined) {
      await save();
      return;
    }
    await lock(manager);
    await save();
    await this.replace(manager, { projectId }, items, await this.repo.all({ projectId }, manager));
  }

  /**
   * A workspace create or update: with a `tag-bindings` list its bindings are replaced, and when
   * it is created or moved the override rule is checked against its (new) project. A refusal
   * throws before anything is written, so the transaction stores nothing of the request.
   */
  async saveWorkspace(
    manager: EntityManager,
    ws: WorkspaceTarget,
    change: WorkspaceTagChange,
    save: () => Promise<unknown>,
    lock: TargetLock,
  ): Promise<void> {
    const created = change.previousProjectId === null;
    const moved = !created && change.previousProjectId !== ws.projectId;
    if (change.items === undefined && !moved) {
      await save();
      return;
    }
    await lock(manager);
    const existing = created ? [] : await this.repo.all({ workspaceId: ws.id }, manager);
    const resulting = change.items ?? existing.map(toInput);
    const pointer = (item: TagBindingInput): string => {
      const i = change.items?.findIndex((x) => sameKey(x.key, item.key)) ?? -1;
      return i >= 0 ? `${RELATIONSHIP_POINTER}/data/${i}/attributes/key` : '/data/relationships/project';
    };
    await this.checkOverrides(
      manager,
      ws,
      resulting,
      moved || created ? null : existing.map(toInput),
      pointer,
    );
    await save();
    if (change.items) await this.replace(manager, { workspaceId: ws.id }, change.items, existing);
  }

  // Writes of the PATCH tag-bindings routes: add new keys, update values of existing ones.

  mergeIntoProject(
    projectId: string,
    items: TagBindingInput[],
    lock: TargetLock,
  ): Promise<TagBindingEntity[]> {
    return inTransaction(this.ds, async (manager) => {
      await lock(manager);
      const existing = await this.repo.all({ projectId }, manager);
      const merged = mergeTagBindings(existing.map(toInput), items);
      checkLimit('project', merged.length, '/data');
      return this.replace(manager, { projectId }, merged, existing);
    });
  }

  mergeIntoWorkspace(
    ws: WorkspaceTarget,
    items: TagBindingInput[],
    lock: TargetLock,
  ): Promise<TagBindingEntity[]> {
    return inTransaction(this.ds, async (manager) => {
      await lock(manager);
      const existing = await this.repo.all({ workspaceId: ws.id }, manager);
      const merged = mergeTagBindings(existing.map(toInput), items);
      checkLimit('workspace', merged.length, '/data');
      await this.checkOverrides(manager, ws, merged, existing.map(toInput), (item) => {
        return `/data/${items.findIndex((x) => sameKey(x.key, item.key))}/attributes/key`;
      });
      return this.replace(manager, { workspaceId: ws.id }, merged, existing);
    });
  }

  private async sorted(scope: TagScope): Promise<TagBindingEntity[]> {
    return (await this.repo.all(scope)).sort(byKey((b) => b.key));
  }

  private async checkOverrides(
    manager: EntityManager,
    ws: WorkspaceTarget,
    resulting: TagBindingInput[],
    previous: TagBindingInput[] | null,
    pointerOf: (item: TagBindingInput) => string,
  ): Promise<void> {
    if (!resulting.length) return;
    const inherited = (await this.repo.all({ projectId: ws.projectId }, manager)).map(toInput);
    const overlapping = resulting.filter((r) => inherited.some((i) => sameKey(i.key, r.key)));
    if (!overlapping.length) return;
    const locked = await this.reserved.overrideLockedKeys(
      manager,
      ws.organizationId,
      overlapping.map((o) => o.key),
    );
    const forbidden = forbiddenOverrides({ resulting, previous, inherited, locked });
    const violations = new Violations();
    for (const f of forbidden) {
      violations.add(
        `Key ${f.key} is reserved with overrides disabled: the workspace cannot override the value it inherits from its project`,
        pointerOf(f),
      );
    }
    violations.throwIfAny();
  }

  /** Makes the bindings of `scope` exactly `desired` (matched by key ignoring case). */
  private async replace(
    manager: EntityManager,
    scope: TagScope,
    desired: TagBindingInput[],
    existing: TagBindingEntity[],
  ): Promise<TagBindingEntity[]> {
    const now = new Date();
    const kept: TagBindingEntity[] = [];
    const added: TagBindingEntity[] = [];
    const removed = existing.filter((e) => !desired.some((d) => sameKey(d.key, e.key)));
    await this.repo.delete(
      manager,
      removed.map((r) => r.id),
    );
    for (const d of desired) {
      const current = existing.find((e) => sameKey(e.key, d.key));
      if (!current) {
        added.push(
          Object.assign(new TagBindingEntity(), {
            id: newId('tb'),
            projectId: 'projectId' in scope ? scope.projectId : null,
            workspaceId: 'workspaceId' in scope ? scope.workspaceId : null,
            key: d.key,
            value: d.value,
            createdAt: now,
            updatedAt: now,
          }),
        );
        continue;
      }
      if (current.key !== d.key || current.value !== d.value) {
        Object.assign(current, { key: d.key, value: d.value, updatedAt: now });
        await this.repo.update(manager, current);
      }
      kept.push(current);
    }
    await this.repo.insert(manager, added);
    return [...kept, ...added].sort(byKey((b) => b.key));
  }
}
