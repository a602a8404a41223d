import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../common/auth/principal';
import { notFound } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { PageParams } from '../common/jsonapi/pagination';
import { Page } from '../common/sql/paginate';
import { OrganizationsService } from '../organizations/organizations.service';
import { VariableAttributes } from './dto/variable-attributes.dto';
import { VariableSetEntity } from './entities/variable-set.entity';
import { VariableEntity } from './entities/variable.entity';
import { VariableSetsService } from './variable-sets.service';
import { BeforeWrite, VariableWrites } from './variable-writes';
import { VariablesRepository } from './variables.repository';
import { VariableView } from './variables.serializer';
import { VarsetAccess } from './varset-access';

/** The variables of a set, under `/varsets/:id/relationships/vars`: the same rules as a workspace's. */
@Injectable()
export class VarsetVariablesService {
  constructor(
    private readonly repo: VariablesRepository,
    private readonly writes: VariableWrites,
    private readonly access: VarsetAccess,
    private readonly sets: VariableSetsService,
    private readonly organizations: OrganizationsService,
  ) {}

  async list(p: Principal, varsetId: string, page: PageParams): Promise<Page<VariableView>> {
    const set = await this.access.requireReadable(p, varsetId);
    const found = await this.repo.list({ varsetId: set.id }, page);
    return { ...found, items: found.items.map((variable) => view(variable, set.id)) };
  }

  async show(p: Principal, varsetId: string, id: string): Promise<VariableView> {
    const set = await this.access.requireReadable(p, varsetId);
    return view(await this.find(set, id), set.id);
  }

  async create(p: Principal, varsetId: string, body: ParsedBody<VariableAttributes>): Promise<VariableView> {
    const set = await this.access.requireManageable(p, varsetId);
    const variable = await this.writes.create({ varsetId: set.id }, body.attributes, this.globalRule(set));
    return view(variable, set.id);
  }

  /** The category of a set's variable is fixed (the official client cannot send one). */
  async update(
    p: Principal,
    varsetId: string,
    id: string,
    body: ParsedBody<VariableAttributes>,
  ): Promise<VariableView> {
    const set = await this.access.requireManageable(p, varsetId);
    const stored = await this.find(set, id);
    const variable = await this.writes.update(stored, body.attributes, {
      categoryFixed: true,
      before: this.globalRule(set),
    });
    return view(variable, set.id);
  }

  async delete(p: Principal, varsetId: string, id: string): Promise<void> {
    const set = await this.access.requireManageable(p, varsetId);
    await this.writes.delete((await this.find(set, id)).id);
  }

  /** In a global set, a key and category no other global set holds (under the organization's lock). */
  private globalRule(set: VariableSetEntity): BeforeWrite {
    return async (manager: EntityManager, variable) => {
      if (!(await this.organizations.lockForChildWrites(manager, set.organizationId))) throw notFound();
      const current = await this.access.requireExisting(manager, set.id);
      if (current.global) await this.sets.checkGlobal(manager, current, [variable], '/data/attributes/key');
    };
  }

  private async find(set: VariableSetEntity, id: string): Promise<VariableEntity> {
    const variable = await this.repo.findById(id);
    if (variable?.varsetId !== set.id) throw notFound();
    return variable;
  }
}

function view(variable: VariableEntity, varsetId: string): VariableView {
  return { variable, owner: { kind: 'varset', varsetId } };
}
