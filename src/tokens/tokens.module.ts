import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentPoolsModule } from '../runs/pools/agent-pools.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { TeamsModule } from '../teams/teams.module';
import { UsersModule } from '../users/users.module';
import { TokenEntity } from './entities/token.entity';
import { LoginController } from './login.controller';
import { LoginService } from './login.service';
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
  controllers: [TokensController, LoginController],
  providers: [TokensRepository, TokensService, LoginService],
  exports: [TokensService, LoginService],
})
export class TokensModule {}
