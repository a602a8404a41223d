import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReservedTagKeysModule } from '../reserved-tag-keys/reserved-tag-keys.module';
import { TagBindingEntity } from './entities/tag-binding.entity';
import { TagBindingsRepository } from './tag-bindings.repository';
import { TagBindingsService } from './tag-bindings.service';

/**
 * Tag bindings and their rules, used by projects and workspaces when they save. The routes live in
 * TagBindingRoutesModule, which depends on projects and workspaces for access checks.
 */
@Module({
  imports: [TypeOrmModule.forFeature([TagBindingEntity]), ReservedTagKeysModule],
  providers: [TagBindingsRepository, TagBindingsService],
  exports: [TagBindingsService],
})
export class TagBindingsModule {}
