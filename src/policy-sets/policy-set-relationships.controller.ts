import { Controller, Delete, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { IdentifierArray } from '../common/jsonapi/body';
import { ResourceIdentifier } from '../common/jsonapi/document';
import { PolicySetRelationshipsService } from './policy-set-relationships.service';
import { Endpoint } from '../http/endpoint';

/** POST adds members (present ones stay), DELETE removes them (absent ones are ignored); both 204. */
@ApiTags('policy-sets')
@ApiBearerAuth()
@Controller(API_V2)
export class PolicySetRelationshipsController {
  constructor(private readonly relationships: PolicySetRelationshipsService) {}

  @Post('policy-sets/:id/relationships/policies')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'policies' })
  @ApiOperation({ summary: 'Add policies (not on a VCS or upload-versioned set)' })
  async addPolicies(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('policies') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.relationships.add(p, id, 'policies', refs);
  }

  @Delete('policy-sets/:id/relationships/policies')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'policies' })
  @ApiOperation({ summary: 'Remove policies (not on a VCS set)' })
  async removePolicies(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('policies') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.relationships.remove(p, id, 'policies', refs);
  }

  @Post('policy-sets/:id/relationships/projects')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'projects' })
  @ApiOperation({ summary: 'Attach projects (not on a global set)' })
  async addProjects(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('projects') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.relationships.add(p, id, 'projects', refs);
  }

  @Delete('policy-sets/:id/relationships/projects')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'projects' })
  @ApiOperation({ summary: 'Detach projects (not on a global set)' })
  async removeProjects(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('projects') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.relationships.remove(p, id, 'projects', refs);
  }

  @Post('policy-sets/:id/relationships/workspaces')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'workspaces' })
  @ApiOperation({ summary: 'Attach workspaces (not on a global set)' })
  async addWorkspaces(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('workspaces') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.relationships.add(p, id, 'workspaces', refs);
  }

  @Delete('policy-sets/:id/relationships/workspaces')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'workspaces' })
  @ApiOperation({ summary: 'Detach workspaces (not on a global set)' })
  async removeWorkspaces(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('workspaces') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.relationships.remove(p, id, 'workspaces', refs);
  }

  @Post('policy-sets/:id/relationships/workspace-exclusions')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'workspaces' })
  @ApiOperation({ summary: 'Stop enforcing the set on these workspaces' })
  async addExclusions(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('workspaces') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.relationships.add(p, id, 'workspace-exclusions', refs);
  }

  @Delete('policy-sets/:id/relationships/workspace-exclusions')
  @Endpoint({ effect: 'leaves-access-alone', relationship: 'workspaces' })
  @ApiOperation({ summary: 'Resume enforcing the set on these workspaces' })
  async removeExclusions(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('workspaces') refs: ResourceIdentifier[],
  ): Promise<void> {
    await this.relationships.remove(p, id, 'workspace-exclusions', refs);
  }
}
