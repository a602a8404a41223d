import { Injectable } from '@nestjs/common';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { TtlMemo } from '../common/cache/ttl-memo';
import { AppConfig } from '../config/app-config';
import type { NotificationConfigurationEntity } from './entities/notification-configuration.entity';

export type EnabledConfiguration = Pick<NotificationConfigurationEntity, 'id' | 'triggers'>;

/**
 * How recent the view of the counters must be for a run's move to use a remembered list. A request
 * read them as it arrived; a move outside any request (a timeout) goes by the process's last read,
 * and reads the list afresh when that is older.
 */
const FRESH_MS = 1_000;

/**
 * A workspace's enabled notification configurations, which every notifying move of a run (four in
 * an applied run's life) would otherwise read in its transaction. An entry ends with any write to
 * the configurations (here at once, elsewhere from the next read of the change counters).
 *
 * The list is read inside the move's transaction as last committed (`enabledIn`), and the entry is
 * stamped with the view taken before that read: a configuration the read could not see was
 * committed after it, so announced after it, and ends the entry. So a move made for a request never
 * misses a configuration whose creation was answered before the request arrived, as a read in its
 * own transaction would not; a move outside any request may miss one created on another process
 * in the last `FRESH_MS`. One that was disabled meanwhile is skipped by the delivery worker, which
 * reads the configuration again before sending.
 */
@Injectable()
export class EnabledConfigurationsCache extends TtlMemo {
  protected override readonly tracksEveryLoad = true;

  constructor(
    config: AppConfig,
    private readonly changes: ChangeEpoch,
  ) {
    super(config.cacheTtlMs, changes);
  }

  of(workspaceId: string, load: () => Promise<EnabledConfiguration[]>): Promise<EnabledConfiguration[]> {
    const key = `nc:${workspaceId}`;
    if (this.changes.readWithin(FRESH_MS)) return this.get(key, load);
    const { value, stamp } = this.loadNoting(load);
    this.set(key, value, stamp);
    return value;
  }
}
