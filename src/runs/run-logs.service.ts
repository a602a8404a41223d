import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { badRequest, conflict, DomainError, notFound } from '../common/errors/domain-error';
import { inTransaction } from '../common/sql/transaction';
import { AppConfig } from '../config/app-config';
import { BlobStore, tooLarge } from '../storage/blob-store';
import { StreamRead, UploadMeta, UploadRegistry } from '../storage/upload-registry';
import { RunLogChunkEntity } from './entities/run-log-chunk.entity';
import { RunLogEntity } from './entities/run-log.entity';
import { RunJobsRepository } from './protocol/run-jobs.repository';
import { LOG_APPEND, LOG_READ, logKey } from './run-links';
import { RunLogsRepository } from './run-logs.repository';
import { isPhaseEnded, PhaseStatus } from './run-rules';
import { RunsRepository } from './runs.repository';

/** Start of text: the first byte of every log stream. */
const STX = Buffer.from([0x02]);
/** End of text: the byte after the last one, once the phase has ended. */
const ETX = Buffer.from([0x03]);

/** The largest chunk one append takes (the executor sends far less; the whole log at once also fits). */
export const MAX_LOG_APPEND_BYTES = 1024 * 1024;
/** Bytes per chunk row: a MariaDB BLOB holds 65,535. */
export const LOG_ROW_BYTES = 60_000;
/** How far past the cut a line start is looked for before the log is cut inside a line. */
const LINE_SEARCH_BYTES = 4096;
/** Ended logs moved to the blob store per sweep at most; the next sweep takes the rest. */
const ARCHIVE_BATCH = 20;
const ARCHIVE_EVERY_MS = 5_000;

/** The line a log cut at `base` starts with. */
export function cutNotice(base: number): Buffer {
  return base > 0
    ? Buffer.from(`[Plinth cut the first ${base} bytes of this log to keep it under its size limit]\n`)
    : Buffer.alloc(0);
}

/** 410: a link shown before a cut, read where the log no longer reaches. */
function cutSinceLinked(): DomainError {
  return new DomainError('gone', [
    {
      detail:
        'This part of the log was cut to keep the log under its size limit since this link was made; ' +
        'read the plan or apply again for a link to what is left',
    },
  ]);
}

/** The read link's resource: the phase, and the first byte of the log it shows (after its cut notice). */
export const logReadResource = (phaseId: string, base: number) => `${phaseId}/${base}`;

function parseReadResource(resource: string): { phaseId: string; base: number } {
  const match = /^([A-Za-z0-9-]+)\/(\d+)$/.exec(resource);
  if (!match) throw notFound();
  return { phaseId: match[1], base: Number(match[2]) };
}

/** Where a log stands when no append has come (or it predates the chunked logs: one blob). */
const emptyLog = (phaseId: string, at: Date): RunLogEntity => ({
  phaseId,
  size: 0,
  dropped: 0,
  archived: false,
  updatedAt: at,
});

/**
 * The logs of plans and applies. An executor appends chunks at byte offsets (a chunk it sends
 * again is acknowledged, a gap refused); readers get byte ranges of the framed log
 * (STX, the log, ETX once the phase ended) while it grows.
 *
 * While a phase runs its log is rows of `run_log_chunks`: every append is one short transaction,
 * committed before it is acknowledged, and every API node reads the same rows. An object store
 * cannot append, so the rows are moved into one blob once the phase has ended (a sweep on every
 * node; the move is idempotent), and the rows are deleted in the transaction that marks it.
 * Past MAX_RUN_LOG_BYTES the head is cut, at a line start where one is near; offsets keep
 * counting every byte ever sent, so a reader's position never moves under it.
 */
@Injectable()
export class RunLogsService implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RunLogs');
  private timer?: NodeJS.Timeout;
  private archiving = false;

  constructor(
    private readonly repo: RunLogsRepository,
    private readonly jobs: RunJobsRepository,
    private readonly runs: RunsRepository,
    private readonly registry: UploadRegistry,
    private readonly blobs: BlobStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    this.registry.registerUpload(LOG_APPEND, {
      maxBytes: () => MAX_LOG_APPEND_BYTES,
      receive: (jobId, body, meta) => this.receive(jobId, body, meta),
    });
    this.registry.registerStream(LOG_READ, {
      read: async (resource, range) => ({
        bytes: await this.read(resource, range),
        contentType: 'text/plain',
      }),
    });
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), ARCHIVE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The first byte each phase's log still has: read links start there. */
  async bases(phaseIds: readonly string[]): Promise<Map<string, number>> {
    return new Map((await this.repo.findMany(phaseIds)).map((l) => [l.phaseId, l.dropped]));
  }

  private async receive(jobId: string, body: Readable, meta: UploadMeta): Promise<void> {
    const raw = meta.query.offset;
    if (raw !== undefined && !/^\d{1,15}$/.test(raw)) {
      throw badRequest('offset must be a whole number of bytes, given once', 'offset');
    }
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of body) {
      length += (chunk as Buffer).length;
      if (length > MAX_LOG_APPEND_BYTES) throw tooLarge(MAX_LOG_APPEND_BYTES);
      chunks.push(chunk as Buffer);
    }
    await this.append(jobId, raw === undefined ? 0 : Number(raw), Buffer.concat(chunks));
  }

  /**
   * Adds the bytes of `chunk` the log does not have yet; `offset` is where the executor says the
   * chunk starts. Bytes the log already has are acknowledged without a change (a retry); a chunk
   * starting past the log's end would leave a gap and is refused (409) with where the log ends.
   */
  async append(jobId: string, offset: number, chunk: Buffer): Promise<void> {
    await inTransaction(this.ds, async (manager) => {
      if (!(await this.repo.lockJob(manager, jobId))) throw notFound();
      const job = await this.jobs.findById(jobId, manager);
      if (!job?.phaseId || job.kind === 'policy-evaluation') throw notFound();
      if (job.status !== 'claimed') throw conflict('The job is no longer running');
      const at = this.clock.now();
      const found = await this.repo.find(job.phaseId, manager);
      const log = found ?? emptyLog(job.phaseId, at);
      if (offset > log.size) {
        throw conflict(
          `This chunk starts at byte ${offset}, but the log has ${log.size} bytes: send it from byte ${log.size}`,
        );
      }
      const fresh = chunk.subarray(log.size - offset);
      if (!fresh.length && found) return;
      const rows: RunLogChunkEntity[] = [];
      for (let i = 0; i < fresh.length; i += LOG_ROW_BYTES) {
        const data = fresh.subarray(i, i + LOG_ROW_BYTES);
        rows.push({
          phaseId: log.phaseId,
          firstByte: log.size + i,
          endByte: log.size + i + data.length,
          data,
        });
      }
      await this.repo.insertChunks(manager, rows);
      log.size += fresh.length;
      if (log.size - log.dropped > this.config.maxRunLogBytes) await this.cut(manager, log);
      log.updatedAt = at;
      await this.repo.save(manager, log, !found);
    });
  }

  /**
   * Drops the head so that at most MAX_RUN_LOG_BYTES remain: at the next line start within a few
   * KiB of the cut, else at the next character start (never inside a UTF-8 sequence).
   */
  private async cut(manager: EntityManager, log: RunLogEntity): Promise<void> {
    const target = log.size - this.config.maxRunLogBytes;
    const [row] = await this.repo.chunksBetween(log.phaseId, target, target + 1, manager);
    let cutAt = target;
    if (row) {
      const from = target - row.firstByte;
      const newline = row.data.subarray(from, from + LINE_SEARCH_BYTES).indexOf(0x0a);
      let i = newline >= 0 ? from + newline + 1 : from;
      while (i < row.data.length && (row.data[i] & 0xc0) === 0x80) i++;
      cutAt = row.firstByte + i;
    }
    await this.repo.deleteChunksBefore(manager, log.phaseId, cutAt);
    if (row && cutAt > row.firstByte && cutAt < row.endByte) {
      await this.repo.deleteChunk(manager, log.phaseId, row.firstByte);
      await this.repo.insertChunks(manager, [
        { ...row, firstByte: cutAt, data: row.data.subarray(cutAt - row.firstByte) },
      ]);
    }
    log.dropped = cutAt;
  }

  /**
   * `[offset, offset + limit)` of the framed log the link shows: STX, the cut notice when the link
   * starts past a cut, the log from the link's first byte, and ETX once the phase has ended (every
   * append is in by then: an append and the end of its job take the same row lock).
   */
  async read(resource: string, range: StreamRead): Promise<Buffer> {
    const { phaseId, base } = parseReadResource(resource);
    const phase = await this.runs.findPhase(phaseId);
    if (!phase) throw notFound();
    const log = (await this.repo.find(phaseId)) ?? (await this.legacyLog(phase.runId, phaseId));
    try {
      return await this.frame(phase, log, base, range);
    } catch (err) {
      // Retention removes a log's blob before its row: until the row goes, the log reads as missing.
      if (!log.archived || (await this.blobs.stat(logKey(phase.runId, phaseId)))) throw err;
      return this.frame(phase, emptyLog(phaseId, log.updatedAt), base, range);
    }
  }

  private async frame(
    phase: { runId: string; status: PhaseStatus },
    log: RunLogEntity,
    base: number,
    range: StreamRead,
  ): Promise<Buffer> {
    const ended = isPhaseEnded(phase.status);
    if (base > log.size) throw notFound();
    const notice = cutNotice(base);
    const dataStart = 1 + notice.length;
    const dataEnd = dataStart + (log.size - base);
    const total = dataEnd + (ended ? 1 : 0);
    const from = Math.min(range.offset, total);
    const to = range.limit === undefined ? total : Math.min(total, from + range.limit);
    const parts: Buffer[] = [];
    const take = (bytes: Buffer, at: number) => {
      const a = Math.max(from, at);
      const b = Math.min(to, at + bytes.length);
      if (a < b) parts.push(bytes.subarray(a - at, b - at));
    };
    take(STX, 0);
    take(notice, 1);
    const a = Math.max(from, dataStart);
    const b = Math.min(to, dataEnd);
    if (a < b) parts.push(await this.bytes(log, phase.runId, base + (a - dataStart), base + (b - dataStart)));
    if (ended) take(ETX, dataEnd);
    return Buffer.concat(parts);
  }

  /** Bytes `[from, to)` of the log, from its rows or its blob. */
  private async bytes(log: RunLogEntity, runId: string, from: number, to: number): Promise<Buffer> {
    if (from < log.dropped) throw cutSinceLinked();
    if (!log.archived) {
      const rows = await this.repo.chunksBetween(log.phaseId, from, to);
      const bytes = Buffer.concat(
        rows.map((r) =>
          r.data.subarray(Math.max(0, from - r.firstByte), Math.min(r.data.length, to - r.firstByte)),
        ),
      );
      if (bytes.length === to - from) return bytes;
      // Rows went meanwhile: cut by an append, or moved to the blob store.
      const now = await this.repo.find(log.phaseId);
      if (now && from < now.dropped) throw cutSinceLinked();
      if (!now?.archived) throw new Error(`the log of ${log.phaseId} is missing bytes ${from}-${to}`);
      log = now;
    }
    const stream = await this.blobs.get(logKey(runId, log.phaseId), {
      start: from - log.dropped,
      end: to - log.dropped,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** A log sent whole before logs were chunked is one blob and no row. */
  private async legacyLog(runId: string, phaseId: string): Promise<RunLogEntity> {
    const stat = await this.blobs.stat(logKey(runId, phaseId));
    return { ...emptyLog(phaseId, this.clock.now()), ...(stat ? { size: stat.size, archived: true } : {}) };
  }

  private async tick(): Promise<void> {
    if (this.archiving) return;
    this.archiving = true;
    try {
      await this.archiveEnded();
    } catch (err) {
      this.logger.warn(`moving ended logs to the blob store failed: ${String(err)}`);
    } finally {
      this.archiving = false;
    }
  }

  /** Moves the logs of ended phases from rows into the blob store; returns how many this node moved. */
  async archiveEnded(): Promise<number> {
    let moved = 0;
    for (const { phaseId, runId } of await this.repo.endedInRows(ARCHIVE_BATCH)) {
      if (await this.archive(phaseId, runId)) moved++;
    }
    return moved;
  }

  /**
   * The blob is written first, then the rows are dropped in the transaction that marks the log
   * archived: a crash in between leaves the rows, and the next sweep writes the same blob again.
   */
  private async archive(phaseId: string, runId: string): Promise<boolean> {
    const log = await this.repo.find(phaseId);
    if (!log || log.archived) return false;
    const rows = await this.repo.chunksBetween(phaseId, log.dropped, log.size);
    const bytes = Buffer.concat(rows.map((r) => r.data.subarray(Math.max(0, log.dropped - r.firstByte))));
    if (bytes.length !== log.size - log.dropped) {
      throw new Error(
        `the log of ${phaseId} has ${bytes.length} bytes in rows, not ${log.size - log.dropped}`,
      );
    }
    await this.blobs.put(logKey(runId, phaseId), Readable.from([bytes]), { maxBytes: bytes.length });
    return inTransaction(this.ds, (manager) => this.repo.archive(manager, phaseId, this.clock.now()));
  }
}
