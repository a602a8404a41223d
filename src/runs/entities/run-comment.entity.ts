import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { RunEntity } from './run.entity';

/** What the actions a comment came with may be; null for a comment posted on its own. */
export const COMMENTED_ACTIONS = ['apply', 'discard', 'cancel', 'force-cancel'] as const;
export type CommentedAction = (typeof COMMENTED_ACTIONS)[number];

/** A comment on a run: posted on its own, or given with an action (apply, discard, cancel). */
@Entity('run_comments')
@Index('ix_run_comments_run_created', ['runId', 'createdAt'])
export class RunCommentEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  runId: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'fk_run_comments_run' })
  run?: RunEntity;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'varchar', length: 16, nullable: true })
  action: CommentedAction | null;

  /** The user who wrote it; null for a team or organization token. No key: the comment outlives its author. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  createdById: string | null;

  @TimestampColumn()
  createdAt: Date;
}
