import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DefaultProjectsRegistry } from './default-projects.registry';
import { OrganizationEntity } from './entities/organization.entity';
import { OrganizationBlobsRegistry } from './organization-blobs.registry';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';

/** Organization lookups and locks, depending only on common/: every module may import it. */
@Module({
  imports: [TypeOrmModule.forFeature([OrganizationEntity])],
  providers: [
    OrganizationsRepository,
    OrganizationsService,
    OrganizationBlobsRegistry,
    DefaultProjectsRegistry,
  ],
  exports: [OrganizationsService, OrganizationBlobsRegistry, DefaultProjectsRegistry],
})
export class OrganizationsModule {}
