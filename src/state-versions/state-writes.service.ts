import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { Principal } from '../common/auth/principal';
import { Clock, strictlyAfter } from '../common/clock';
import { conflict, invalid, notFound } from '../common/errors/domain-error';
import { newId } from '../common/ids';
import { ParsedBody } from '../common/jsonapi/body';
import { inTransaction } from '../common/sql/transaction';
import { RunsService } from '../runs/runs.service';
import { UploadRegistry } from '../storage/upload-registry';
import { leaseLost } from '../storage/upload-leases';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { WorkspaceLocks, WorkspaceStateGuard } from '../workspaces/workspace-locks.service';
import {
  CreateStateVersionAttributes,
  RollbackStateVersionAttributes,
} from './dto/state-version-attributes.dto';
import { StateVersionOutputEntity } from './entities/state-version-output.entity';
import { StateVersionEntity } from './entities/state-version.entity';
import { pendingVersion } from './state-version-row';
import { StateContent, StateKind, StoredState, UPLOAD_PURPOSE } from './state-content';
import { StateFile } from './state-file';
import { checkUploadedJson, inlineState, uploadedState } from './state-version-content-checks';
import { lockRefusal, stateConflict, STATE_TEXTS } from './state-version-rules';
import { StateVersionsRepository } from './state-versions.repository';

/** A state file read and checked, and where it was stored. */
export interface ArrivedState {
  file: StateFile;
  stored: StoredState;
}

/**
 * Everything that writes state: new versions (inline or pending, then uploaded through their
 * one-time links), rollbacks, and what an unlock means for state. Every write decides under the
 * workspace's row lock, where the lock holder, the current version and the pending versions meet.
 */
@Injectable()
export class StateWritesService implements OnModuleInit {
  constructor(
    private readonly repo: StateVersionsRepository,
    private readonly content: StateContent,
    private readonly workspaces: WorkspacesService,
    private readonly workspaceLocks: WorkspaceLocks,
    private readonly runs: RunsService,
    private readonly registry: UploadRegistry,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    for (const kind of ['state', 'json-state'] as const) {
      this.registry.registerUpload(UPLOAD_PURPOSE[kind], {
        maxBytes: () => this.content.maxBytes,
        receive: (id, body) => this.receive(id, kind, body),
      });
    }
  }

  /**
   * `POST /workspaces/:id/state-versions`. Needs write access and the workspace's lock (organization
   * tokens never write state). With `state` the version is finalized at once and becomes current;
   * without it the version waits, `pending`, for its upload.
   */
  async create(
    p: Principal,
    workspaceId: string,
    body: ParsedBody<CreateStateVersionAttributes>,
  ): Promise<StateVersionEntity> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'write');
    if (p.kind === 'organization') throw notFound(STATE_TEXTS.organizationToken);
    const { declared, state, json, file } = inlineState(body.attributes, (bytes) =>
      this.content.checkSize(bytes),
    );
    const runId = await this.runOf(p, ws.id, body);
    // A cheap refusal first: nothing is stored for a request the lock or the serial refuses.
    await inTransaction(this.ds, (manager) => this.guard(manager, p, ws.id, declared));

    const id = newId('sv');
    const stored = file && state ? await this.content.store(ws.id, id, 'state', state) : null;
    const storedJson = json ? await this.storeOrAbandon(ws.id, id, json, stored) : null;
    try {
      return await inTransaction(this.ds, async (manager) => {
        const guard = await this.guard(manager, p, ws.id, declared);
        const newest = await this.repo.newest(manager, ws.id);
        const createdAt = strictlyAfter(newest?.createdAt ?? null, this.clock.now());
        const version = pendingVersion({
          id,
          workspaceId: ws.id,
          serial: declared.serial,
          lineage: declared.lineage ?? file?.lineage ?? null,
          md5: declared.md5,
          runId,
          createdById: p.kind === 'user' ? p.userId : null,
          jsonStateBlobKey: storedJson?.blobKey ?? null,
          jsonStateDataKey: storedJson?.dataKey ?? null,
          jsonStateSize: storedJson?.size ?? null,
          createdAt,
        });
        await this.repo.insert(manager, version);
        if (file && stored) await this.finalize(manager, version, { file, stored }, guard);
        for (const s of [stored, storedJson]) if (s && !(await s.lease.release(manager))) throw leaseLost();
        return version;
      });
    } catch (err) {
      for (const s of [stored, storedJson]) if (s) await s.lease.abandon();
      throw err;
    }
  }

  /**
   * `PATCH /workspaces/:id/state-versions`: a copy of an older finalized version becomes the new
   * current one (its state files are shared, its outputs copied). Needs admin and the lock.
   */
  async rollback(
    p: Principal,
    workspaceId: string,
    body: ParsedBody<RollbackStateVersionAttributes>,
  ): Promise<StateVersionEntity> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'admin');
    if (p.kind === 'organization') throw notFound(STATE_TEXTS.organizationToken);
    const pointer = '/data/relationships/rollback-state-version';
    const ref = body.toOne('rollback-state-version', 'state-versions');
    if (!ref) throw invalid('Rollback state version is required', pointer);
    const source = await this.repo.findById(ref.id);
    if (!source || source.workspaceId !== ws.id || source.status !== 'finalized') {
      throw invalid(
        'Rollback state version must be a finalized state version of this workspace',
        `${pointer}/data/id`,
      );
    }
    const outputs = await this.repo.outputsOf([source.id]);
    return inTransaction(this.ds, async (manager) => {
      await this.lockedBy(manager, p, ws.id);
      const newest = await this.repo.newest(manager, ws.id);
      const createdAt = strictlyAfter(newest?.createdAt ?? null, this.clock.now());
      const copy = Object.assign(new StateVersionEntity(), {
        ...source,
        id: newId('sv'),
        runId: null,
        createdById: p.kind === 'user' ? p.userId : null,
        rollbackOfId: source.id,
        createdAt,
        updatedAt: createdAt,
      } satisfies StateVersionEntity);
      await this.repo.insert(manager, copy);
      await this.repo.insertOutputs(
        manager,
        outputs.map((o) => {
          const outputId = newId('wsout');
          return Object.assign(new StateVersionOutputEntity(), {
            ...o,
            id: outputId,
            stateVersionId: copy.id,
            sealedValue: this.content.sealOutput(outputId, this.content.openOutput(o.id, o.sealedValue)),
          });
        }),
      );
      await this.repo.discardPending(manager, ws.id, createdAt, createdAt);
      await this.workspaceLocks.setCurrentState(manager, ws.id, {
        stateVersionId: copy.id,
        resourceCount: copy.resourceCount,
      });
      return copy;
    });
  }

  /**
   * Run in the transaction that unlocks a workspace: a pending newest version refuses the unlock
   * (the CLI retries while its upload finishes); a forced unlock discards the pending versions.
   */
  async onUnlock(manager: EntityManager, workspaceId: string, forced: boolean): Promise<void> {
    if (forced) {
      await this.repo.discardPending(manager, workspaceId, this.clock.now());
      return;
    }
    const newest = await this.repo.newest(manager, workspaceId);
    if (newest?.status === 'pending') throw invalid(STATE_TEXTS.stillPending);
  }

  /** The upload links' handler: the state (which finalizes the version) or its JSON form. */
  private async receive(id: string, kind: StateKind, body: Readable): Promise<void> {
    const version = await this.repo.findById(id);
    if (!version) throw notFound();
    this.checkUploadable(version, kind);
    const bytes = await this.content.read(body);
    if (kind === 'state') {
      const file = uploadedState(bytes, version);
      const stored = await this.content.store(version.workspaceId, id, kind, bytes);
      await this.record(stored, version, kind, (manager) =>
        this.recordState(manager, version, { file, stored }),
      );
      return;
    }
    checkUploadedJson(bytes);
    const stored = await this.content.store(version.workspaceId, id, kind, bytes);
    await this.record(stored, version, kind, (manager) =>
      this.repo.attachJsonState(manager, id, {
        jsonStateBlobKey: stored.blobKey,
        jsonStateDataKey: stored.dataKey,
        jsonStateSize: stored.size,
        updatedAt: this.clock.now(),
      }),
    );
  }

  /** 409 for a link whose file already arrived, or whose version was discarded. */
  private checkUploadable(version: StateVersionEntity, kind: StateKind): void {
    if (version.status === 'discarded') throw conflict(STATE_TEXTS.discarded);
    const arrived = kind === 'state' ? version.status === 'finalized' : version.jsonStateBlobKey !== null;
    if (arrived) throw conflict(STATE_TEXTS.uploaded);
  }

  /** Records a stored file in one transaction with the end of its lease; undoes the store otherwise. */
  private async record(
    stored: StoredState,
    version: StateVersionEntity,
    kind: StateKind,
    write: (manager: EntityManager) => Promise<boolean>,
  ): Promise<void> {
    let recorded: boolean;
    try {
      recorded = await inTransaction(this.ds, async (manager) => {
        if (!(await write(manager))) return false;
        if (!(await stored.lease.release(manager))) throw leaseLost();
        return true;
      });
    } catch (err) {
      await stored.lease.abandon();
      throw err;
    }
    if (recorded) return;
    await stored.lease.abandon();
    const now = await this.repo.findById(version.id);
    if (!now) throw notFound();
    this.checkUploadable(now, kind);
    throw conflict(STATE_TEXTS.uploaded);
  }

  /** The uploaded state finalizes its pending version (false when it no longer is pending). */
  private async recordState(
    manager: EntityManager,
    version: StateVersionEntity,
    arrived: ArrivedState,
  ): Promise<boolean> {
    const guard = await this.workspaceLocks.lockForStateWrite(manager, version.workspaceId);
    if (!guard) throw notFound();
    return this.finalize(manager, version, arrived, guard);
  }

  /**
   * A version gets its state: outputs, summary, finalized; the older pending versions are
   * discarded and it becomes current unless a newer version already is. Inside the transaction
   * that holds `guard` (the workspace's row lock), after the write was checked.
   */
  async finalize(
    manager: EntityManager,
    version: StateVersionEntity,
    { file, stored }: ArrivedState,
    guard: WorkspaceStateGuard,
  ): Promise<boolean> {
    const now = this.clock.now();
    const changes: Partial<StateVersionEntity> = {
      stateBlobKey: stored.blobKey,
      stateDataKey: stored.dataKey,
      size: stored.size,
      lineage: version.lineage ?? file.lineage,
      stateFormat: file.format,
      terraformVersion: file.terraformVersion,
      resources: file.summary.resources,
      modules: file.summary.modules,
      providers: file.summary.providers,
      resourceCount: file.summary.resourceCount,
      resourcesProcessed: true,
      updatedAt: now,
    };
    if (!(await this.repo.finalize(manager, version.id, changes))) return false;
    Object.assign(version, changes, { status: 'finalized' });
    await this.repo.insertOutputs(
      manager,
      file.outputs.map((o) => {
        const outputId = newId('wsout');
        return Object.assign(new StateVersionOutputEntity(), {
          id: outputId,
          stateVersionId: version.id,
          name: o.name,
          sensitive: o.sensitive,
          type: o.type,
          detailedType: o.detailedType,
          sealedValue: this.content.sealOutput(outputId, o.value),
        } satisfies StateVersionOutputEntity);
      }),
    );
    await this.repo.discardPending(manager, version.workspaceId, now, version.createdAt);
    const current = guard.currentStateVersionId
      ? await this.repo.findById(guard.currentStateVersionId, manager)
      : null;
    if (!current || current.createdAt < version.createdAt) {
      await this.workspaceLocks.setCurrentState(manager, version.workspaceId, {
        stateVersionId: version.id,
        resourceCount: file.summary.resourceCount,
      });
    }
    return true;
  }

  /**
   * Under the workspace's row lock: the caller holds the lock, and the declared state does not
   * conflict with the current one (409s in the real service's words).
   */
  private async guard(
    manager: EntityManager,
    p: Principal,
    workspaceId: string,
    declared: { serial: number; md5: string; lineage: string | null; force: boolean },
  ): Promise<WorkspaceStateGuard> {
    const guard = await this.lockedBy(manager, p, workspaceId);
    const current = guard.currentStateVersionId
      ? await this.repo.findById(guard.currentStateVersionId, manager)
      : null;
    const refusal = stateConflict(declared, current);
    if (refusal) throw conflict(refusal);
    return guard;
  }

  private async lockedBy(
    manager: EntityManager,
    p: Principal,
    workspaceId: string,
  ): Promise<WorkspaceStateGuard> {
    const guard = await this.workspaceLocks.lockForStateWrite(manager, workspaceId);
    if (!guard) throw notFound();
    const refusal = lockRefusal(guard.holder, p);
    if (refusal) throw conflict(refusal);
    return guard;
  }

  private async storeOrAbandon(
    workspaceId: string,
    id: string,
    json: Buffer,
    stored: StoredState | null,
  ): Promise<StoredState> {
    try {
      return await this.content.store(workspaceId, id, 'json-state', json);
    } catch (err) {
      await stored?.lease.abandon();
      throw err;
    }
  }

  /** The run named by `relationships.run`, which must be one of the workspace's (422 otherwise). */
  private async runOf(
    p: Principal,
    workspaceId: string,
    body: ParsedBody<CreateStateVersionAttributes>,
  ): Promise<string | null> {
    const ref = body.toOne('run', 'runs');
    if (!ref) return null;
    const [run] = await this.runs.readable(p, [ref.id]);
    if (!run || run.workspaceId !== workspaceId) {
      throw invalid('Run not found in this workspace', '/data/relationships/run/data/id');
    }
    return run.id;
  }
}
