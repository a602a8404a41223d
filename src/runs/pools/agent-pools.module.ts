import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../../organizations/organizations.module';
import { WorkspacesModule } from '../../workspaces/workspaces.module';
import { AgentAuthService } from './agent-auth.service';
import { AgentPoolsController } from './agent-pools.controller';
import { AgentPoolsRepository } from './agent-pools.repository';
import { AgentPoolsService } from './agent-pools.service';
import { AgentProtocolController } from '../protocol/agent-protocol.controller';
import { AgentTokenStrategy } from '../protocol/agent-token.strategy';
import { AgentTokensController } from './agent-tokens.controller';
import { AgentTokensRepository } from './agent-tokens.repository';
import { AgentTokensService } from './agent-tokens.service';
import { AgentsController } from './agents.controller';
import { AgentActivityRepository } from './agent-activity.repository';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { AgentWorkRegistry } from './agent-work.registry';
import { AgentEntity } from './entities/agent.entity';
import { AgentPoolWorkspaceEntity } from './entities/agent-pool-workspace.entity';
import { AgentPoolEntity } from './entities/agent-pool.entity';
import { AgentTokenEntity } from './entities/agent-token.entity';

/**
 * Agent pools, their agent tokens and agents, and the executor authentication the job protocol
 * builds on: the `agent-token` passport strategy (AgentTokenStrategy) with `@CurrentAgent()`, and the
 * AgentWorkRegistry through which the runs module tells which agents hold a job (`busy`).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([AgentPoolEntity, AgentPoolWorkspaceEntity, AgentTokenEntity, AgentEntity]),
    OrganizationsModule,
    WorkspacesModule,
  ],
  controllers: [AgentPoolsController, AgentTokensController, AgentsController, AgentProtocolController],
  providers: [
    AgentPoolsRepository,
    AgentTokensRepository,
    AgentsRepository,
    AgentActivityRepository,
    AgentPoolsService,
    AgentTokensService,
    AgentsService,
    AgentAuthService,
    AgentTokenStrategy,
    AgentWorkRegistry,
  ],
  exports: [AgentPoolsService, AgentTokensService, AgentsService, AgentAuthService, AgentWorkRegistry],
})
export class AgentPoolsModule {}
