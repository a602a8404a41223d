import { Injectable } from '@nestjs/common';
import { Principal } from '../common/auth/principal';
import { PageParams } from '../common/jsonapi/pagination';
import { Page, pageOfAll } from '../common/sql/paginate';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { VariableCategory, VariableEntity } from './entities/variable.entity';
import { RunVariable } from './run-variable-rules';
import { RunVariablesService } from './run-variables.service';
import { VariableWrites } from './variable-writes';
import { Candidate, effectiveVariables, Effective, Origin } from './precedence';
import { VariableSetsRepository } from './variable-sets.repository';
import { VariablesRepository } from './variables.repository';
import { VariableView } from './variables.serializer';
import { WorkspaceVariablesService } from './workspace-variables.service';

type WorkspaceRef = { id: string; projectId: string; organizationId: string };

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
   * sensitive when a sensitive terraform variable of the same key reaches the workspace, so that
   * whoever shows or logs it masks it. For the run's jobs only, never for an answer.
   */
  async snapshot(ws: WorkspaceRef, runId?: string): Promise<SnapshotEntry[]> {
    const [stored, given] = await Promise.all([
      this.candidates(ws),
      runId ? this.runVariables.of(runId) : Promise.resolve([]),
    ]);
    const sensitiveKeys = new Set(
      stored.filter((c) => c.variable.sensitive && c.category === 'terraform').map((c) => c.key),
    );
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

  private async candidates(ws: WorkspaceRef): Promise<Candidate<VariableEntity>[]> {
    const [own, applicable] = await Promise.all([this.vars.ofWorkspace(ws.id), this.sets.applicableTo(ws)]);
    const setVars = await this.vars.ofVarsets(applicable.map((a) => a.set.id));
    const origins = new Map<string, Origin>(
      applicable.map(({ set, scopes }) => [
        set.id,
        {
          kind: 'varset',
          id: set.id,
          name: set.name,
          priority: set.priority,
          projectOwned: !!set.projectId,
          scopes,
        },
      ]),
    );
    const candidates: Candidate<VariableEntity>[] = [
      ...own.map((variable) => ({
        key: variable.key,
        category: variable.category,
        origin: { kind: 'workspace' } as const,
        variable,
      })),
      ...setVars.flatMap((variable) => {
        const origin = origins.get(variable.varsetId ?? '');
        return origin ? [{ key: variable.key, category: variable.category, origin, variable }] : [];
      }),
    ];
    return candidates;
  }
}
