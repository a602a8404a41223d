import { Injectable } from '@nestjs/common';
import { EntityManager, LessThanOrEqual } from 'typeorm';
import { LoginCodeEntity } from './entities/login-code.entity';

@Injectable()
export class LoginCodesRepository {
  async insert(manager: EntityManager, code: LoginCodeEntity): Promise<void> {
    await manager.getRepository(LoginCodeEntity).insert(code);
  }

  /** Codes past their expiry: nobody can use them any more. */
  async deleteExpired(manager: EntityManager, now: Date): Promise<void> {
    await manager.getRepository(LoginCodeEntity).delete({ expiresAt: LessThanOrEqual(now) });
  }

  /**
   * Takes the code out: reads it and deletes it, and returns it only when this delete removed the
   * row. Of two exchanges of one code, on any number of nodes, exactly one gets it.
   */
  async take(manager: EntityManager, digest: string): Promise<LoginCodeEntity | null> {
    const repo = manager.getRepository(LoginCodeEntity);
    const code = await repo.findOne({ where: { digest } });
    if (!code) return null;
    const removed = await repo.delete({ digest });
    return removed.affected === 1 ? code : null;
  }
}
