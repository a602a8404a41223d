import { Injectable, OnModuleInit } from '@nestjs/common';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { Clock } from '../common/clock';
import { conflict, notFound } from '../common/errors/domain-error';
import { BlobStore } from '../storage/blob-store';
import { SignedLinks } from '../storage/signed-links';
import { UploadRegistry } from '../storage/upload-registry';
import { RunJobsRepository } from './protocol/run-jobs.repository';
import { RunsRepository } from './runs.repository';

export const CONFIGURATION_UPLOAD = 'configuration-version-upload';
export const CONFIGURATION_DOWNLOAD = 'configuration-version-download';

/** The files an executor sends for a phase, each behind its own upload and download purpose. */
export const PHASE_FILES = {
  'plan-json': { suffix: 'json', contentType: 'application/json', kinds: ['plan'] },
  'plan-file': { suffix: 'plan', contentType: 'application/octet-stream', kinds: ['plan'] },
} as const;
export type PhaseFile = keyof typeof PHASE_FILES;

const uploadPurpose = (file: PhaseFile) => `run-${file}-upload`;
const downloadPurpose = (file: PhaseFile) => `run-${file}-download`;

/** Where a run's files live in the blob store. */
export const runBlobPrefix = (runId: string) => `runs/${runId}/`;

/** An executor's log link: appends chunks (run-logs.service.ts; the purpose the whole-log PUT had). */
export const LOG_APPEND = 'run-log-upload';
/** A plan's or apply's `log-read-url`: the log by byte range. */
export const LOG_READ = 'run-log-read';

/** Where a phase's log lives in the blob store once the phase has ended. */
export const logKey = (runId: string, phaseId: string) => `${runBlobPrefix(runId)}${phaseId}.log`;

/** Where a phase's file lives in the blob store. */
export const phaseFileKey = (runId: string, phaseId: string, file: PhaseFile) =>
  `${runBlobPrefix(runId)}${phaseId}.${PHASE_FILES[file].suffix}`;

/** An upload link of a configuration version is valid for one hour from its creation. */
export const UPLOAD_LINK_SECONDS = 3600;
/** Links handed to an executor outlive any sensible job; the job's state still decides what they accept. */
export const JOB_LINK_SECONDS = 24 * 3600;
/** Links a reader is redirected to are followed at once. */
export const READ_LINK_SECONDS = 300;
/** A log link is followed for as long as its phase runs: a day at least, two hours' worth of one token. */
export const LOG_LINK_SECONDS = 24 * 3600;

/** Caps per file: logs and plan JSON are text, the saved plan can hold provider schemas. */
const MAX_PHASE_FILE_BYTES: Record<PhaseFile, number> = {
  'plan-json': 100 * 1024 * 1024,
  'plan-file': 200 * 1024 * 1024,
};

/**
 * The signed links of configuration versions and of run phases, and what the /uploads routes do
 * with the phase files: an executor PUTs them while its job is claimed (each PUT replaces the
 * file), readers GET them through short-lived links. Logs are appended and read by byte range
 * (run-logs.service.ts).
 */
@Injectable()
export class RunLinks implements OnModuleInit {
  constructor(
    private readonly links: SignedLinks,
    private readonly registry: UploadRegistry,
    private readonly runs: RunsRepository,
    private readonly jobs: RunJobsRepository,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    for (const file of Object.keys(PHASE_FILES) as PhaseFile[]) {
      this.registry.registerUpload(uploadPurpose(file), {
        maxBytes: () => MAX_PHASE_FILE_BYTES[file],
        receive: (jobId, body) => this.receive(jobId, file, body),
      });
      this.registry.registerDownload(downloadPurpose(file), {
        locate: async (phaseId) => {
          const phase = await this.runs.findPhase(phaseId);
          if (!phase) throw notFound();
          return {
            key: phaseFileKey(phase.runId, phase.id, file),
            filename: `${phase.id}.${PHASE_FILES[file].suffix}`,
            contentType: PHASE_FILES[file].contentType,
          };
        },
      });
    }
  }

  configurationUpload(origin: string, cvId: string, createdAt: Date): string {
    const expiresAt = Math.floor(createdAt.getTime() / 1000) + UPLOAD_LINK_SECONDS;
    return this.links.url(origin, { purpose: CONFIGURATION_UPLOAD, resourceId: cvId, expiresAt });
  }

  configurationDownload(origin: string, cvId: string, seconds: number): string {
    return this.links.url(origin, {
      purpose: CONFIGURATION_DOWNLOAD,
      resourceId: cvId,
      expiresAt: this.expiry(seconds),
    });
  }

  /** Upload links name the job, so they stop working once it is no longer claimed. */
  phaseUpload(origin: string, jobId: string, file: PhaseFile): string {
    return this.links.url(origin, {
      purpose: uploadPurpose(file),
      resourceId: jobId,
      expiresAt: this.expiry(JOB_LINK_SECONDS),
    });
  }

  phaseDownload(origin: string, phaseId: string, file: PhaseFile, seconds = READ_LINK_SECONDS): string {
    return this.links.url(origin, {
      purpose: downloadPurpose(file),
      resourceId: phaseId,
      expiresAt: this.expiry(seconds),
    });
  }

  /** An executor's log link of the job (appends at `?offset=`), which stops working with the claim. */
  logAppend(origin: string, jobId: string): string {
    return this.links.url(origin, {
      purpose: LOG_APPEND,
      resourceId: jobId,
      expiresAt: this.expiry(JOB_LINK_SECONDS),
    });
  }

  /**
   * A `log-read-url`: the log from byte `base` (where its cut, if any, left it). Its expiry is
   * rounded up to the hour, so the same link is shown for an hour and then works for a day.
   */
  logRead(origin: string, resourceId: string): string {
    const hour = 3600;
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return this.links.url(origin, {
      purpose: LOG_READ,
      resourceId,
      expiresAt: Math.ceil(now / hour) * hour + LOG_LINK_SECONDS,
    });
  }

  /** Whether the phase's file has arrived. */
  async hasFile(runId: string, phaseId: string, file: PhaseFile): Promise<boolean> {
    return (await this.blobs.stat(phaseFileKey(runId, phaseId, file))) !== null;
  }

  /** The phase's file as text, or null when it has not arrived. */
  async readFile(runId: string, phaseId: string, file: PhaseFile): Promise<string | null> {
    const key = phaseFileKey(runId, phaseId, file);
    if (!(await this.blobs.stat(key))) return null;
    return text(await this.blobs.get(key));
  }

  private expiry(seconds: number): number {
    return Math.floor(this.clock.now().getTime() / 1000) + seconds;
  }

  private async receive(jobId: string, file: PhaseFile, body: Readable): Promise<void> {
    const job = await this.jobs.findById(jobId);
    if (!job?.phaseId || !(PHASE_FILES[file].kinds as readonly string[]).includes(job.kind)) throw notFound();
    if (job.status !== 'claimed') throw conflict('The job is no longer running');
    await this.blobs.put(phaseFileKey(job.runId, job.phaseId, file), body, {
      maxBytes: MAX_PHASE_FILE_BYTES[file],
    });
  }
}
