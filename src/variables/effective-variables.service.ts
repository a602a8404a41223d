import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../common/auth/principal';
import { PageParams } from '../common/jsonapi/pagination';
import { Page, pageOfAll } from '../common/sql/paginate';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { VariableCategory, VariableEntity } from './entities/variable.entity';
import { RunVariable, sensitiveRunKeys } from './run-variable-rules';
import { RunVariablesService } from './run-variables.service';
import { VariableWrites } from './variable-writes';
import { Candidate, effectiveVariables, Effective } from './precedence';
import { ReachingVariables, ReachingVariablesRepository } from './reaching-variables.repository';
import { VariableSetsRepository, WorkspaceRef } from './variable-sets.repository';
import { VariablesRepository } from './variables.repository';
import { VariableView } from './variables.serializer';
import { WorkspaceVariablesService } from './workspace-variables.service';

/** One variable a run receives, in clear, and where it comes from. */
export interface SnapshotEntry {
  key: string;
  value: string;
  category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
  from: 'workspace' | 'varset' | 'run';
  varsetId?: string;
}

/** A variable that reaches a workspace, where it comes from and the tier it won at. */
export interface EffectiveView extends VariableView {
  tier: number;
}

/**
 * The variables that reach a workspace after precedence (precedence.ts): its own variables and
 * those of the sets that reach it, one per category and key. Read access to the workspace suffices.
 */
@Injectable()
export class EffectiveVariablesService {
  constructor(
    private readonly vars: VariablesRepository,
    private readonly sets: VariableSetsRepository,
    private readonly workspaceVariables: WorkspaceVariablesService,
    private readonly workspaces: WorkspacesService,
    private readonly runVariables: RunVariablesService,
    private readonly writes: VariableWrites,
    private readonly reaching: ReachingVariablesRepository,
  ) {}

  async list(p: Principal, workspaceId: string, page: PageParams): Promise<Page<EffectiveView>> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'read');
    const [owner, all] = await Promise.all([this.workspaceVariables.ownerRef(ws), this.effective(ws)]);
    const views = all.map((e): EffectiveView => ({
      variable: e.variable,
      tier: e.tier,
      owner: e.origin.kind === 'varset' ? { kind: 'varset', varsetId: e.origin.id } : owner,
    }));
    return pageOfAll(views, page, (item, property) => item.variable[property as keyof VariableEntity]);
  }

  /** The winners for a workspace, with their origins (no permission check). */
  async effective(ws: WorkspaceRef): Promise<Effective<VariableEntity>[]> {
    return effectiveVariables(await this.candidates(ws));
  }

  /**
   * What a run of the workspace receives, values in clear: the winners among the workspace's
   * variables, the sets reaching it and the run's own variables (`runId`). A run variable is
   * sensitive when its key is sensitive by name (`sensitiveRunKeys`), so that whoever shows or logs
   * it masks it. With `manager`, everything is read in that transaction, with one statement. For
   * the run's jobs only, never for an answer.
   */
  async snapshot(ws: WorkspaceRef, runId?: string, manager?: EntityManager): Promise<SnapshotEntry[]> {
    const reaching = await this.reaching.read(ws, runId, manager);
    const stored = storedCandidates(reaching);
    const given = this.runVariables.open(reaching.given);
    const sensitiveKeys = sensitiveRunKeys(stored.map((c) => c.variable));
    type Source = { stored: VariableEntity } | { run: RunVariable };
    const candidates: Candidate<Source>[] = [
      ...stored.map((c) => ({ ...c, variable: { stored: c.variable } })),
      ...given.map((v) => ({
        key: v.key,
        category: 'terraform',
        origin: { kind: 'run' } as const,
        variable: { run: v },
      })),
    ];
    return effectiveVariables(candidates).map((e): SnapshotEntry => {
      if ('run' in e.variable) {
        const { key, value } = e.variable.run;
        return {
          key,
          value,
          category: 'terraform',
          hcl: true,
          sensitive: sensitiveKeys.has(key),
          from: 'run',
        };
      }
      const v = e.variable.stored;
      return {
        key: v.key,
        value: this.writes.plaintext(v),
        category: v.category,
        hcl: v.hcl,
        sensitive: v.sensitive,
        from: e.origin.kind === 'varset' ? 'varset' : 'workspace',
        ...(e.origin.kind === 'varset' ? { varsetId: e.origin.id } : {}),
      };
    });
  }

  /**
   * The variables of these runs as their wire shape shows them (`[{key, value}]`), in the order
   * given: the value of a key that is sensitive by name in its workspace now (`sensitiveRunKeys`)
   * is null, and never opened. One query for the runs' variables, and a few for the sensitive keys
   * of the workspaces of those that have any. Runs given none are absent.
   */
  async shownRunVariables(
    runs: readonly { id: string; workspace: WorkspaceRef }[],
  ): Promise<Map<string, { key: string; value: string | null }[]>> {
    const workspaceOf = new Map(runs.map((r) => [r.id, r.workspace]));
    return this.runVariables.ofRuns([...workspaceOf.keys()], async (withVariables) => {
      const workspaces = [
        ...new Map(withVariables.map((id) => workspaceOf.get(id)!).map((w) => [w.id, w])).values(),
      ];
      const ids = workspaces.map((w) => w.id);
      const [own, fromSets] = await Promise.all([
        this.vars.sensitiveOfWorkspaces(ids),
        this.sets.sensitiveReaching(workspaces),
      ]);
      const sensitive = new Map(
        ids.map((id) => [
          id,
          sensitiveRunKeys([
            ...own.filter((v) => v.workspaceId === id).map((v) => ({ ...v, sensitive: true })),
            ...(fromSets.get(id) ?? []),
          ]),
        ]),
      );
      return (runId, key) => !sensitive.get(workspaceOf.get(runId)?.id ?? '')?.has(key);
    });
  }

  private async candidates(ws: WorkspaceRef): Promise<Candidate<VariableEntity>[]> {
    return storedCandidates(await this.reaching.read(ws));
  }
}

function storedCandidates({ own, fromSets }: ReachingVariables): Candidate<VariableEntity>[] {
  return [
    ...own.map((variable) => ({
      key: variable.key,
      category: variable.category,
      origin: { kind: 'workspace' } as const,
      variable,
    })),
    ...fromSets.map(({ variable, set }) => ({
      key: variable.key,
      category: variable.category,
      origin: set,
      variable,
    })),
  ];
}
