import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects/projects.module';
import { TeamsModule } from '../teams/teams.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { OrganizationEntity } from './entities/organization.entity';
import { OrganizationBlobsRegistry } from './organization-blobs.registry';
import { OrganizationsController } from '../organization-lifecycle/organizations.controller';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([OrganizationEntity]),
    forwardRef(() => TeamsModule),
    forwardRef(() => ProjectsModule),
    forwardRef(() => WorkspacesModule),
  ],
  controllers: [OrganizationsController],
  providers: [OrganizationsRepository, OrganizationsService, OrganizationBlobsRegistry],
  exports: [OrganizationsService, OrganizationBlobsRegistry],
})
export class OrganizationsModule {}
