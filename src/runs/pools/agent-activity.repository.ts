import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RowReader } from '../../common/sql/row-reader';
import { RowWriter } from '../../common/sql/row-writer';
import { AgentEntity } from './entities/agent.entity';

/**
 * What every executor request reads and writes of its agent (who it is, that it called in, whether
 * it works), without TypeORM's builders. The agents' lists and their creation and removal are
 * AgentsRepository's.
 */
@Injectable()
export class AgentActivityRepository {
  private readonly rows: RowReader<AgentEntity>;
  private readonly writes: RowWriter<AgentEntity>;

  constructor(@InjectDataSource() ds: DataSource) {
    this.rows = new RowReader(ds, AgentEntity);
    this.writes = new RowWriter(ds, AgentEntity);
  }

  /** The pool of an agent, which the agent guard checks, and its name, which the audit trail shows. */
  async identityOf(id: string): Promise<{ poolId: string; name: string } | null> {
    const agent = await this.rows.byId(id);
    return agent ? { poolId: agent.poolId, name: agent.name } : null;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.writes.update({ lastPingAt: at }, { id });
  }
}
