import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentPoolsModule } from '../agent-pools/agent-pools.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { TeamsModule } from '../teams/teams.module';
import { UsersModule } from '../users/users.module';
import { TokenEntity } from './entities/token.entity';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([TokenEntity]),
    OrganizationsModule,
    TeamsModule,
    UsersModule,
    AgentPoolsModule,
  ],
  controllers: [TokensController],
  providers: [TokensRepository, TokensService],
  exports: [TokensService],
})
export class TokensModule {}
