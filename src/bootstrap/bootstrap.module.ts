import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { BootstrapController } from './bootstrap.controller';
import { BootstrapService } from './bootstrap.service';
import { SystemSettingEntity } from './entities/system-setting.entity';
import { SystemSettingsRepository } from './system-settings.repository';

@Module({
  imports: [TypeOrmModule.forFeature([SystemSettingEntity]), UsersModule, TokensModule],
  controllers: [BootstrapController],
  providers: [SystemSettingsRepository, BootstrapService],
})
export class BootstrapModule {}
