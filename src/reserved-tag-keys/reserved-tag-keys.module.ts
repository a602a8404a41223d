import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ReservedTagKeyEntity } from './entities/reserved-tag-key.entity';
import { ReservedTagKeysController } from './reserved-tag-keys.controller';
import { ReservedTagKeysRepository } from './reserved-tag-keys.repository';
import { ReservedTagKeysService } from './reserved-tag-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([ReservedTagKeyEntity]), OrganizationsModule],
  controllers: [ReservedTagKeysController],
  providers: [ReservedTagKeysRepository, ReservedTagKeysService],
  exports: [ReservedTagKeysService],
})
export class ReservedTagKeysModule {}
