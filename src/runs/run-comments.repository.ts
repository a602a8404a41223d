import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { newId } from '../common/ids';
import { PageParams } from '../common/jsonapi/pagination';
import { paginate, Page } from '../common/sql/paginate';
import { lockRow } from '../common/sql/transaction';
import { CommentedAction, RunCommentEntity } from './entities/run-comment.entity';
import { RunEntity } from './entities/run.entity';

export interface NewComment {
  runId: string;
  body: string;
  action: CommentedAction | null;
  createdById: string | null;
}

@Injectable()
export class RunCommentsRepository {
  constructor(@InjectRepository(RunCommentEntity) private readonly repo: Repository<RunCommentEntity>) {}

  findById(id: string): Promise<RunCommentEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** A run's comments in the order they were written, as its timeline shows them. */
  list(runId: string, page: PageParams): Promise<Page<RunCommentEntity>> {
    const qb = this.repo
      .createQueryBuilder('c')
      .where('c.run_id = :runId', { runId })
      .orderBy('c.created_at', 'ASC')
      .addOrderBy('c.id', 'ASC');
    return paginate(qb, page);
  }

  /** Locks the run's row for the rest of the transaction; false when the run is gone. */
  lockRun(manager: EntityManager, runId: string): Promise<boolean> {
    return lockRow(manager, RunEntity, runId);
  }

  countOf(manager: EntityManager, runId: string): Promise<number> {
    return manager.getRepository(RunCommentEntity).count({ where: { runId } });
  }

  async insert(comment: NewComment, at: Date, manager?: EntityManager): Promise<RunCommentEntity> {
    const row = Object.assign(new RunCommentEntity(), { id: newId('wsc'), ...comment, createdAt: at });
    await (manager ?? this.repo.manager).getRepository(RunCommentEntity).insert(row);
    return row;
  }
}
