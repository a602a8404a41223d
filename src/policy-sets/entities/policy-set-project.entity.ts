import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { ProjectEntity } from '../../projects/entities/project.entity';
import { PolicySetEntity } from './policy-set.entity';

/** A project the set is enforced on (non-global sets). Deleting either side removes it. */
@Entity('policy_set_projects')
@Index('ix_policy_set_projects_project', ['projectId'])
export class PolicySetProjectEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  policySetId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => PolicySetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_set_id', foreignKeyConstraintName: 'fk_policy_set_projects_set' })
  policySet?: PolicySetEntity;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_policy_set_projects_project' })
  member?: ProjectEntity;

  @TimestampColumn()
  createdAt: Date;
}
