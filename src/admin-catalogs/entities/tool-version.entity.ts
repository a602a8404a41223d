import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import type { Catalog } from '../catalogs';

/** One entry of an administrator catalog; both catalogs share the table, told apart by `catalog`. */
@Entity('tool_versions')
@Index('uq_tool_versions_catalog_version', ['catalog', 'version'], { unique: true })
export class ToolVersionEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  catalog: Catalog;

  @Column({ type: 'varchar', length: 64 })
  version: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** SHA-256 of the download, 64 lower-case hexadecimal characters. */
  @Column({ type: 'varchar', length: 64 })
  sha: string;

  @BoolColumn()
  deprecated: boolean;

  /** Null unless `deprecated`. */
  @Column({ type: 'text', nullable: true })
  deprecatedReason: string | null;

  @BoolColumn()
  official: boolean;

  @BoolColumn({ default: true })
  enabled: boolean;

  @BoolColumn()
  beta: boolean;

  @TimestampColumn()
  createdAt: Date;
}
