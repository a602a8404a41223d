import { Injectable } from '@nestjs/common';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { notFound } from '../common/errors/domain-error';
import { PageParams } from '../common/jsonapi/pagination';
import { pageResult } from '../common/sql/paginate';
import { OrganizationsService } from '../organizations/organizations.service';
import { AuditRecorder } from './audit.recorder';
import { AuditFilter, AuditRepository } from './audit.repository';
import { serializeAuditTrail } from './audit.serializer';

@Injectable()
export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly recorder: AuditRecorder,
    private readonly organizations: OrganizationsService,
    private readonly permissions: PermissionService,
  ) {}

  /**
   * `GET /organization/audit-trail`. As on the real service, an organization token reads its own
   * organization's trail (no organization in the path); so does a token of the owners team. A user
   * names the organization (`filter[organization]`) and must own it; a site administrator who names
   * none reads everything.
   */
  async organizationTrail(p: Principal, orgName: string | undefined, page: PageParams, since?: Date) {
    if (p.kind !== 'user') {
      const org = orgName ? await this.organizations.requireVisible(p, orgName) : undefined;
      if (org && org.id !== p.organizationId) throw notFound();
      await this.permissions.requireOwner(p, p.organizationId);
      return this.read({ organizationId: p.organizationId, since }, page);
    }
    if (!orgName) {
      if (!this.permissions.isSiteAdmin(p)) throw notFound();
      return this.read({ since }, page);
    }
    return this.read({ organizationId: await this.ownedOrganization(p, orgName), since }, page);
  }

  /** `GET /admin/audit-trail`: every event, or one organization's, for site administrators. */
  async installationTrail(p: Principal, orgName: string | undefined, page: PageParams, since?: Date) {
    if (!this.permissions.isSiteAdmin(p)) throw notFound();
    const organizationId = orgName ? (await this.organizations.requireByName(orgName)).id : undefined;
    return this.read({ organizationId, since }, page);
  }

  private async ownedOrganization(p: Principal, orgName: string): Promise<string> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireOwner(p, org.id);
    return org.id;
  }

  private async read(filter: AuditFilter, page: PageParams): Promise<Record<string, unknown>> {
    // This process's own writes are in the trail before it is read.
    await this.recorder.flush();
    const events = await this.repo.list(filter, page);
    const orgIds = new Set<string>();
    for (const e of events.items) {
      if (e.organizationId) orgIds.add(e.organizationId);
      if (e.actorType === 'organization' && e.actorId) orgIds.add(e.actorId);
    }
    const orgs = await this.organizations.findByIds([...orgIds]);
    return serializeAuditTrail(events.items, pageResult(events), new Map(orgs.map((o) => [o.id, o.name])));
  }
}
