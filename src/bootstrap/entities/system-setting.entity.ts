import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';

/** Installation-wide key/value settings (e.g. the initial admin creation token). */
@Entity('system_settings')
export class SystemSettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key: string;

  @Column({ type: 'text' })
  value: string;

  @TimestampColumn()
  updatedAt: Date;
}
