import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DefaultProjectsRegistry } from '../organizations/default-projects.registry';
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
export class ProjectsModule implements OnModuleInit {
  constructor(
    private readonly defaultProjects: DefaultProjectsRegistry,
    private readonly repo: ProjectsRepository,
  ) {}

  onModuleInit(): void {
    this.defaultProjects.register((organizationIds) => this.repo.defaultIdsOf(organizationIds));
  }
}
