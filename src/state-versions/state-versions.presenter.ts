import { Injectable } from '@nestjs/common';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { Included, ResourceObject } from '../common/jsonapi/document';
import { RunsPresenter } from '../runs/runs.presenter';
import { RunsService } from '../runs/runs.service';
import { SignedLinks } from '../storage/signed-links';
import { serializeUser } from '../users/users.serializer';
import { UsersService } from '../users/users.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { StateVersionOutputEntity } from './entities/state-version-output.entity';
import { StateVersionEntity } from './entities/state-version.entity';
import { StateContent, StateKind, UPLOAD_PURPOSE } from './state-content';
import { StateVersionsRepository } from './state-versions.repository';
import {
  serializeStateVersion,
  serializeStateVersionOutput,
  serializeWorkspaceOutput,
} from './state-versions.serializer';

/** `include` values of state version reads (the snake_case spelling; kebab-case is read alike). */
export const STATE_VERSION_INCLUDES = [
  'created_by',
  'run',
  'run.created_by',
  'run.configuration_version',
  'outputs',
] as const;

/** A state version's upload links work for an hour from its creation. */
export const UPLOAD_LINK_SECONDS = 3600;

/** Loads what the state version and output wire shapes need, a whole page at a time. */
@Injectable()
export class StateVersionsPresenter {
  constructor(
    private readonly repo: StateVersionsRepository,
    private readonly content: StateContent,
    private readonly links: SignedLinks,
    private readonly users: UsersService,
    private readonly runs: RunsService,
    private readonly runsPresenter: RunsPresenter,
    private readonly workspaces: WorkspacesService,
    private readonly permissions: PermissionService,
  ) {}

  /**
   * The upload links are shown while the version is pending, and only to callers who may write its
   * state: a link is a write capability of its own. (The JSON state's link keeps working once the
   * state has finalized the version, for a client that sends both at once.)
   */
  async resources(p: Principal, versions: StateVersionEntity[], origin: string): Promise<ResourceObject[]> {
    const pending = versions.filter((v) => v.status === 'pending');
    const [outputIds, writable] = await Promise.all([
      this.repo.outputIdsOf(versions.filter((v) => v.status === 'finalized').map((v) => v.id)),
      this.writableWorkspaces(
        p,
        pending.map((v) => v.workspaceId),
      ),
    ]);
    return versions.map((v) => {
      const links = v.status === 'pending' && writable.has(v.workspaceId);
      return serializeStateVersion(v, {
        outputIds: outputIds.get(v.id) ?? [],
        stateUploadUrl: links ? this.uploadLink(origin, v, 'state') : null,
        jsonStateUploadUrl:
          links && v.jsonStateBlobKey === null ? this.uploadLink(origin, v, 'json-state') : null,
      });
    });
  }

  async resource(p: Principal, version: StateVersionEntity, origin: string): Promise<ResourceObject> {
    const [resource] = await this.resources(p, [version], origin);
    return resource;
  }

  /**
   * Workspaces' current versions for their `included` (`include=current-state-version`): only
   * finalized ones, so never with upload links. The caller has already been allowed to read them.
   */
  async currentVersions(ids: string[]): Promise<ResourceObject[]> {
    const versions = (await this.repo.findByIds(ids)).filter((v) => v.status === 'finalized');
    const outputIds = await this.repo.outputIdsOf(versions.map((v) => v.id));
    return versions.map((v) =>
      serializeStateVersion(v, {
        outputIds: outputIds.get(v.id) ?? [],
        stateUploadUrl: null,
        jsonStateUploadUrl: null,
      }),
    );
  }

  /** The outputs of each version as `workspace-outputs`, sensitive values null (`include=outputs`). */
  async workspaceOutputs(versionIds: string[]): Promise<Map<string, ResourceObject[]>> {
    const out = new Map<string, ResourceObject[]>();
    for (const o of await this.repo.outputsOf(versionIds)) {
      const value = o.sensitive ? null : this.content.openOutput(o.id, o.sealedValue);
      out.set(o.stateVersionId, [...(out.get(o.stateVersionId) ?? []), serializeWorkspaceOutput(o, value)]);
    }
    return out;
  }

  /** The workspaces among `ids` whose state `p` may write (write access; never an organization token). */
  private async writableWorkspaces(p: Principal, ids: string[]): Promise<Set<string>> {
    if (!ids.length || p.kind === 'organization') return new Set();
    const levels = await this.permissions.workspaceLevels(p, await this.workspaces.findByIds(ids));
    return new Set(
      [...levels].filter(([, level]) => level === 'write' || level === 'admin').map(([id]) => id),
    );
  }

  /**
   * Outputs with their values opened; `withhold` leaves sensitive values null (the current-outputs
   * route, which is meant for callers who need outputs but not secrets).
   */
  outputResources(outputs: StateVersionOutputEntity[], withhold: 'sensitive' | 'nothing'): ResourceObject[] {
    return outputs.map((o) =>
      serializeStateVersionOutput(
        o,
        withhold === 'sensitive' && o.sensitive ? null : this.content.openOutput(o.id, o.sealedValue),
      ),
    );
  }

  /** The `included` array of state version reads, each type read once for the whole page. */
  async included(
    p: Principal,
    versions: StateVersionEntity[],
    includes: readonly string[],
    origin: string,
  ): Promise<ResourceObject[] | undefined> {
    if (!includes.length) return undefined;
    const wants = (name: string) => includes.includes(name);
    const ids = (f: (v: StateVersionEntity) => string | null) =>
      versions.map(f).filter((id): id is string => id !== null);
    const included = new Included();
    if (wants('created_by')) {
      included.add(
        ...(await this.users.findByIds(ids((v) => v.createdById))).map((u) => serializeUser(u, false)),
      );
    }
    if (wants('run') || wants('run.created_by') || wants('run.configuration_version')) {
      const runs = await this.runs.readable(
        p,
        ids((v) => v.runId),
      );
      if (wants('run')) included.add(...(await this.runsPresenter.resources(p, runs)));
      const nested = [
        ...(wants('run.created_by') ? ['created_by'] : []),
        ...(wants('run.configuration_version') ? ['configuration_version'] : []),
      ];
      included.add(...((await this.runsPresenter.included(p, runs, nested, origin)) ?? []));
    }
    if (wants('outputs')) {
      const finalized = versions.filter((v) => v.status === 'finalized').map((v) => v.id);
      included.add(...this.outputResources(await this.repo.outputsOf(finalized), 'nothing'));
    }
    return included.toArray();
  }

  private uploadLink(origin: string, version: StateVersionEntity, kind: StateKind): string {
    return this.links.url(origin, {
      purpose: UPLOAD_PURPOSE[kind],
      resourceId: version.id,
      expiresAt: Math.floor(version.createdAt.getTime() / 1000) + UPLOAD_LINK_SECONDS,
    });
  }
}
