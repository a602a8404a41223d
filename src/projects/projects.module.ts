import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { TagBindingsModule } from '../tag-bindings/tag-bindings.module';
import { ProjectEntity } from './entities/project.entity';
import { ProjectWorkspaceCounts } from './project-workspace-counts';
import { ProjectsController } from './projects.controller';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

@Module({
  imports: [TypeOrmModule.forFeature([ProjectEntity]), OrganizationsModule, TagBindingsModule],
  controllers: [ProjectsController],
  providers: [ProjectsRepository, ProjectWorkspaceCounts, ProjectsService],
  exports: [ProjectsService, ProjectWorkspaceCounts],
})
export class ProjectsModule {}
