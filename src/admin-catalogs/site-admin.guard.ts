import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { notFound } from '../common/errors/domain-error';

/**
 * Site administrators only; anyone else (organization owners, team and organization tokens)
 * sees 404. A guard rather than a service check, so a non-administrator's body is never
 * validated and a 422 cannot reveal the route.
 */
@Injectable()
export class SiteAdminGuard implements CanActivate {
  constructor(private readonly permissions: PermissionService) {}

  canActivate(context: ExecutionContext): boolean {
    const principal = context.switchToHttp().getRequest<Request & { user?: Principal }>().user;
    if (!principal || !this.permissions.isSiteAdmin(principal)) throw notFound();
    return true;
  }
}
