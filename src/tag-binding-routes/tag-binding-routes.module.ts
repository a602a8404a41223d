import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { TagBindingsModule } from '../tag-bindings/tag-bindings.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { TagBindingAccessService } from './tag-binding-access.service';
import { TagBindingsController } from './tag-bindings.controller';

/** The /projects/:id and /workspaces/:id tag-binding routes. Nothing imports this module. */
@Module({
  imports: [TagBindingsModule, ProjectsModule, WorkspacesModule],
  controllers: [TagBindingsController],
  providers: [TagBindingAccessService],
})
export class TagBindingRoutesModule {}
