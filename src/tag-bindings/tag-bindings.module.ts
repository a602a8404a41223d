import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects/projects.module';
import { ReservedTagKeysModule } from '../reserved-tag-keys/reserved-tag-keys.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { TagBindingEntity } from './entities/tag-binding.entity';
import { TagBindingAccessService } from '../tag-binding-routes/tag-binding-access.service';
import { TagBindingsController } from '../tag-binding-routes/tag-bindings.controller';
import { TagBindingsRepository } from './tag-bindings.repository';
import { TagBindingsService } from './tag-bindings.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([TagBindingEntity]),
    forwardRef(() => ReservedTagKeysModule),
    forwardRef(() => ProjectsModule),
    forwardRef(() => WorkspacesModule),
  ],
  controllers: [TagBindingsController],
  providers: [TagBindingsRepository, TagBindingsService, TagBindingAccessService],
  exports: [TagBindingsService],
})
export class TagBindingsModule {}
