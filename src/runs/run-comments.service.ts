import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../common/auth/principal';
import { Clock } from '../common/clock';
import { invalid, notFound } from '../common/errors/domain-error';
import { PageParams } from '../common/jsonapi/pagination';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { MAX_COMMENT_LENGTH } from './dto/comment-attributes.dto';
import { CommentedAction, RunCommentEntity } from './entities/run-comment.entity';
import { RunCommentsRepository } from './run-comments.repository';
import { RunsService } from './runs.service';

/**
 * The optional comment of a run action (`{"comment": "…"}`, plain JSON as the real service's
 * clients send it): null when absent, null or blank; 422 when it is not a string or too long.
 */
export function actionComment(body: unknown): string | null {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const comment = (body as Record<string, unknown>).comment;
  if (comment === undefined || comment === null) return null;
  if (typeof comment !== 'string') throw invalid('Comment must be a string', '/comment');
  if (comment.length > MAX_COMMENT_LENGTH) {
    throw invalid(`Comment is too long (maximum is ${MAX_COMMENT_LENGTH} characters)`, '/comment');
  }
  return comment.trim() === '' ? null : comment;
}

const authorOf = (p: Principal) => (p.kind === 'user' ? p.userId : null);

/**
 * Comments a run may hold. Anyone who reads a run may comment on it, so without a bound one reader
 * could grow the database without end; a real review thread stays far below it.
 */
export const MAX_COMMENTS_PER_RUN = 1000;

/** Comments on runs: readers of a run read and write them (the run's `can-comment`). */
@Injectable()
export class RunCommentsService {
  constructor(
    private readonly runs: RunsService,
    private readonly repo: RunCommentsRepository,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** 422 once the run holds MAX_COMMENTS_PER_RUN comments, counted under the run's row lock. */
  async create(p: Principal, runId: string, body: string): Promise<RunCommentEntity> {
    const run = await this.runs.requireReadable(p, runId);
    const comment = await inTransaction(this.ds, async (manager) => {
      // Concurrent comments on one run take turns here, so none slips past the cap.
      if (!(await this.repo.lockRun(manager, run.id))) return undefined;
      if ((await this.repo.countOf(manager, run.id)) >= MAX_COMMENTS_PER_RUN) {
        throw invalid(`Run already has the maximum of ${MAX_COMMENTS_PER_RUN} comments`);
      }
      return this.repo.insert(
        { runId: run.id, body, action: null, createdById: authorOf(p) },
        this.clock.now(),
        manager,
      );
    });
    if (!comment) throw notFound();
    return comment;
  }

  /**
   * The comment an action came with, once the action is done. Not counted against the cap: a run
   * has few actions, and they need more than read access.
   */
  async recordAction(p: Principal, runId: string, action: CommentedAction, body: string): Promise<void> {
    await this.repo.insert({ runId, body, action, createdById: authorOf(p) }, this.clock.now());
  }

  async list(p: Principal, runId: string, page: PageParams): Promise<Page<RunCommentEntity>> {
    const run = await this.runs.requireReadable(p, runId);
    return this.repo.list(run.id, page);
  }

  async show(p: Principal, id: string): Promise<RunCommentEntity> {
    const comment = await this.repo.findById(id);
    if (!comment) throw notFound();
    await this.runs.requireReadable(p, comment.runId);
    return comment;
  }
}
