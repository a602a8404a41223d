import { Injectable } from '@nestjs/common';
import { Principal } from '../common/auth/principal';
import { Clock } from '../common/clock';
import { invalid, notFound } from '../common/errors/domain-error';
import { PageParams } from '../common/jsonapi/pagination';
import { Page } from '../common/sql/paginate';
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

/** Comments on runs: readers of a run read and write them (the run's `can-comment`). */
@Injectable()
export class RunCommentsService {
  constructor(
    private readonly runs: RunsService,
    private readonly repo: RunCommentsRepository,
    private readonly clock: Clock,
  ) {}

  async create(p: Principal, runId: string, body: string): Promise<RunCommentEntity> {
    const run = await this.runs.requireReadable(p, runId);
    return this.repo.insert(
      { runId: run.id, body, action: null, createdById: authorOf(p) },
      this.clock.now(),
    );
  }

  /** The comment an action came with, once the action is done. */
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
