import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ModuleVersionStatus, RegistryModuleVersionEntity } from '../entities/registry-module-version.entity';

@Injectable()
export class ModuleVersionsRepository {
  constructor(
    @InjectRepository(RegistryModuleVersionEntity)
    private readonly repo: Repository<RegistryModuleVersionEntity>,
  ) {}

  findById(id: string): Promise<RegistryModuleVersionEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  find(moduleId: string, version: string): Promise<RegistryModuleVersionEntity | null> {
    return this.repo.findOne({ where: { moduleId, version } });
  }

  async insert(manager: EntityManager, version: RegistryModuleVersionEntity): Promise<void> {
    await manager.getRepository(RegistryModuleVersionEntity).insert({ ...version });
  }

  async delete(manager: EntityManager, id: string): Promise<boolean> {
    const result = await manager.getRepository(RegistryModuleVersionEntity).delete({ id });
    return (result.affected ?? 0) > 0;
  }

  count(manager: EntityManager, moduleId: string): Promise<number> {
    return manager.getRepository(RegistryModuleVersionEntity).count({ where: { moduleId } });
  }

  /** A compare-and-set on the status: false when the version is gone or was not in `from`. */
  async transition(
    manager: EntityManager,
    id: string,
    from: ModuleVersionStatus,
    changes: Partial<RegistryModuleVersionEntity>,
  ): Promise<boolean> {
    const result = await manager
      .getRepository(RegistryModuleVersionEntity)
      .update({ id, status: from }, changes);
    return (result.affected ?? 0) > 0;
  }
}
