import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, strictlyAfter } from '../common/clock';
import { conflict, invalid, notFound } from '../common/errors/domain-error';
import { newId } from '../common/ids';
import { inTransaction } from '../common/sql/transaction';
import { RunsService } from '../runs/runs.service';
import { JobStateLinks, StateHandoff, StateHandoffRegistry } from '../runs/state-handoff.registry';
import { SignedLinks } from '../storage/signed-links';
import { leaseLost } from '../storage/upload-leases';
import { DownloadTarget, UploadRegistry } from '../storage/upload-registry';
import { WorkspaceLocks, WorkspaceStateGuard } from '../workspaces/workspace-locks.service';
import { StateVersionEntity } from './entities/state-version.entity';
import { StateContent } from './state-content';
import { readStateFile } from './state-file';
import { DeclaredState, runLockRefusal, stateConflict } from './state-version-rules';
import { StateVersionsRepository } from './state-versions.repository';
import { pendingVersion } from './state-version-row';
import { StateWritesService } from './state-writes.service';

/** Signed link purposes: a run's executor reads the current state and hands the new one back. */
export const RUN_STATE_DOWNLOAD = 'run-state-download';
export const RUN_STATE_UPLOAD = 'run-state-upload';

/** The run a state upload comes from: the version names it. */
interface WritingRun {
  id: string;
  workspaceId: string;
}

/**
 * The state handoff between Plinth and a run's executor. A plan or apply job's claim carries a
 * signed GET of the workspace's current state (null while there is none); an apply job's also a
 * signed PUT of the state its apply leaves, which becomes a new version naming the run. The run
 * holds the workspace's lock while it is in progress, so its upload is checked like any other
 * write (serial, lineage, MD5 of the same serial) except for whose lock it needs. The executor
 * retries: the same state from the same run again answers with the version it already made.
 */
@Injectable()
export class RunStateHandoff implements StateHandoff, OnModuleInit {
  constructor(
    private readonly repo: StateVersionsRepository,
    private readonly content: StateContent,
    private readonly writes: StateWritesService,
    private readonly workspaceLocks: WorkspaceLocks,
    private readonly runs: RunsService,
    private readonly registry: UploadRegistry,
    private readonly handoffs: StateHandoffRegistry,
    private readonly signed: SignedLinks,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    this.handoffs.register(this);
    this.registry.registerDownload(RUN_STATE_DOWNLOAD, { locate: (id) => this.locate(id) });
    this.registry.registerUpload(RUN_STATE_UPLOAD, {
      maxBytes: () => this.content.maxBytes,
      receive: (jobId, body) => this.receive(jobId, body),
    });
  }

  links(
    origin: string,
    job: { id: string; kind: 'plan' | 'apply' },
    workspace: { currentStateVersionId: string | null },
    expiresAt: number,
  ): JobStateLinks {
    const current = workspace.currentStateVersionId;
    const state = current
      ? this.signed.url(origin, { purpose: RUN_STATE_DOWNLOAD, resourceId: current, expiresAt })
      : null;
    if (job.kind !== 'apply') return { state };
    return {
      state,
      'state-upload': this.signed.url(origin, { purpose: RUN_STATE_UPLOAD, resourceId: job.id, expiresAt }),
    };
  }

  /** The raw state of a finalized version, decrypted as it streams. */
  private async locate(versionId: string): Promise<DownloadTarget> {
    const version = await this.repo.findById(versionId);
    const [key, dataKey, size] = [version?.stateBlobKey, version?.stateDataKey, version?.size];
    if (!key || !dataKey || size === null || size === undefined) throw notFound();
    return {
      key,
      filename: 'terraform.tfstate',
      contentType: 'application/octet-stream',
      served: { size, open: () => this.content.open(key, dataKey) },
    };
  }

  /** The state-upload link's handler: the link names an apply job that has started. */
  private async receive(jobId: string, body: Readable): Promise<void> {
    const found = await this.runs.jobWithRun(jobId);
    if (!found || found.kind !== 'apply') throw notFound();
    if (found.status === 'queued') throw conflict('The apply has not started: it has no state to hand over');
    await this.write(found.run, await this.content.read(body));
  }

  /**
   * Stores the state the run's apply left as a new finalized version naming the run, which
   * becomes current. The same state from the same run again is the version already made.
   */
  async write(run: WritingRun, bytes: Buffer): Promise<StateVersionEntity> {
    const reading = readStateFile(bytes);
    if (!reading.ok) throw invalid(`The state was refused: ${reading.reason}`);
    const file = reading.state;
    if (file.serial === null) throw invalid('The state was refused: it names no serial');
    const declared: DeclaredState = {
      serial: file.serial,
      md5: createHash('md5').update(bytes).digest('hex'),
      lineage: file.lineage,
      force: false,
    };
    // Checked first without storing anything: a repeat or a refusal needs no blob.
    const first = await inTransaction(this.ds, (manager) => this.check(manager, run, declared));
    if ('repeat' in first) return first.repeat;

    const id = newId('sv');
    const stored = await this.content.store(run.workspaceId, id, 'state', bytes);
    try {
      const version = await inTransaction(this.ds, async (manager) => {
        const checked = await this.check(manager, run, declared);
        if ('repeat' in checked) return checked.repeat;
        const newest = await this.repo.newest(manager, run.workspaceId);
        const created = pendingVersion({
          id,
          workspaceId: run.workspaceId,
          serial: declared.serial,
          lineage: file.lineage,
          md5: declared.md5,
          runId: run.id,
          createdById: null,
          createdAt: strictlyAfter(newest?.createdAt ?? null, this.clock.now()),
        });
        await this.repo.insert(manager, created);
        await this.writes.finalize(manager, created, { file, stored }, checked.guard);
        if (!(await stored.lease.release(manager))) throw leaseLost();
        return created;
      });
      // A concurrent try of the same upload won: its version is the one.
      if (version.id !== id) await stored.lease.abandon();
      return version;
    } catch (err) {
      await stored.lease.abandon();
      throw err;
    }
  }

  /**
   * Under the workspace's row lock: the version this run already made of this state, or else the
   * guard once the run may write (nobody else holds the lock) and the state follows the current one.
   */
  private async check(
    manager: EntityManager,
    run: WritingRun,
    declared: DeclaredState,
  ): Promise<{ repeat: StateVersionEntity } | { guard: WorkspaceStateGuard }> {
    const guard = await this.workspaceLocks.lockForStateWrite(manager, run.workspaceId);
    if (!guard) throw notFound();
    const repeat = await this.repo.writtenByRun(manager, run.workspaceId, run.id, declared.md5);
    if (repeat) return { repeat };
    const refusal = runLockRefusal(guard.holder, run.id);
    if (refusal) throw conflict(refusal);
    const current = guard.currentStateVersionId
      ? await this.repo.findById(guard.currentStateVersionId, manager)
      : null;
    const stale = stateConflict(declared, current);
    if (stale) throw conflict(stale);
    return { guard };
  }
}
