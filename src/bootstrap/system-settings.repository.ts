import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { SystemSettingEntity } from './entities/system-setting.entity';

@Injectable()
export class SystemSettingsRepository {
  constructor(
    @InjectRepository(SystemSettingEntity) private readonly repo: Repository<SystemSettingEntity>,
  ) {}

  async get(key: string): Promise<string | null> {
    return (await this.repo.findOne({ where: { key } }))?.value ?? null;
  }

  /** Inserts unless the key exists (several processes may boot at once). */
  async insertIfAbsent(key: string, value: string): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .insert()
      .into(SystemSettingEntity)
      .values({ key, value, updatedAt: new Date() })
      .orIgnore()
      .execute();
  }

  /** Deletes the key only if it holds `value`; true when this call consumed it. */
  async consume(manager: EntityManager, key: string, value: string): Promise<boolean> {
    const result = await manager.getRepository(SystemSettingEntity).delete({ key, value });
    return (result.affected ?? 0) === 1;
  }
}
