import { Injectable } from '@nestjs/common';
import { Principal } from '../common/auth/principal';
import { PageParams } from '../common/jsonapi/pagination';
import { Page, pageOfAll } from '../common/sql/paginate';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { VariableEntity } from './entities/variable.entity';
import { Candidate, effectiveVariables, Effective, Origin } from './precedence';
import { VariableSetsRepository } from './variable-sets.repository';
import { VariablesRepository } from './variables.repository';
import { VariableView } from './variables.serializer';
import { WorkspaceVariablesService } from './workspace-variables.service';

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
  async effective(ws: {
    id: string;
    projectId: string;
    organizationId: string;
  }): Promise<Effective<VariableEntity>[]> {
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
    return effectiveVariables(candidates);
  }
}
