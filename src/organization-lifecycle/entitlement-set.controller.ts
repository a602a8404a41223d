import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { ResourceDocument } from '../common/jsonapi/document';
import { ENTITLEMENT_SET_DOC, serializeEntitlementSet } from '../organizations/entitlements';
import { OrganizationsService } from '../organizations/organizations.service';
import { Endpoint } from '../http/endpoint';

/** What the CLI asks at `init`: which features the organization may use (`operations` above all). */
@ApiTags('organizations')
@ApiBearerAuth()
@Controller(`${API_V2}/organizations`)
export class EntitlementSetController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get(':name/entitlement-set')
  @Endpoint({ show: [ENTITLEMENT_SET_DOC] })
  async show(@CurrentPrincipal() p: Principal, @Param('name') name: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeEntitlementSet(await this.organizations.requireVisible(p, name)));
  }
}
