import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { Principal } from '../common/auth/principal';
import { notFound } from '../common/errors/domain-error';
import { PageParams } from '../common/jsonapi/pagination';
import { Page } from '../common/sql/paginate';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { StateVersionOutputEntity } from './entities/state-version-output.entity';
import { StateVersionEntity, StateVersionStatus } from './entities/state-version.entity';
import { StateContent, StateKind } from './state-content';
import { StateVersionsRepository } from './state-versions.repository';

/** A state file to send: its decrypted bytes and how many there are. */
export interface StateDownload {
  stream: Readable;
  size: number;
}

/**
 * Reads of state versions and outputs. Any access to the workspace reads its state and outputs
 * (the real service's read level covers both); everything else is a 404.
 */
@Injectable()
export class StateVersionsService {
  constructor(
    private readonly repo: StateVersionsRepository,
    private readonly workspaces: WorkspacesService,
    private readonly content: StateContent,
  ) {}

  async requireReadable(p: Principal, id: string): Promise<StateVersionEntity> {
    const version = await this.repo.findById(id);
    if (!version) throw notFound();
    await this.workspaces.requireAccess(p, version.workspaceId, 'read');
    return version;
  }

  /** The workspace's current version; 404 while it has none. */
  async current(p: Principal, workspaceId: string): Promise<StateVersionEntity> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'read');
    const version = ws.currentStateVersionId ? await this.repo.findById(ws.currentStateVersionId) : null;
    if (!version) throw notFound('The workspace has no state yet');
    return version;
  }

  async list(
    p: Principal,
    filter: { organization: string; workspace: string; status?: StateVersionStatus },
    page: PageParams,
  ): Promise<Page<StateVersionEntity>> {
    const ws = await this.workspaces.requireByName(p, filter.organization, filter.workspace);
    return this.repo.list(ws.id, filter.status, page);
  }

  async outputs(p: Principal, versionId: string, page: PageParams): Promise<Page<StateVersionOutputEntity>> {
    const version = await this.requireReadable(p, versionId);
    return this.repo.outputsPage(version.id, page);
  }

  async currentOutputs(
    p: Principal,
    workspaceId: string,
    page: PageParams,
  ): Promise<Page<StateVersionOutputEntity>> {
    const version = await this.current(p, workspaceId);
    return this.repo.outputsPage(version.id, page);
  }

  async output(p: Principal, id: string): Promise<StateVersionOutputEntity> {
    const output = await this.repo.findOutput(id);
    if (!output) throw notFound();
    await this.requireReadable(p, output.stateVersionId);
    return output;
  }

  /** The decrypted state (or JSON state) of a version; 404 while it has none. */
  async download(p: Principal, id: string, kind: StateKind): Promise<StateDownload> {
    const version = await this.requireReadable(p, id);
    const [blobKey, dataKey, size] =
      kind === 'state'
        ? [version.stateBlobKey, version.stateDataKey, version.size]
        : [version.jsonStateBlobKey, version.jsonStateDataKey, version.jsonStateSize];
    if (!blobKey || !dataKey || size === null) throw notFound();
    return { stream: await this.content.open(blobKey, dataKey), size };
  }
}
