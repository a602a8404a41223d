/**
 * `(SELECT id …)` built by the module that owns the tables it reads, with its named parameters,
 * for another module to embed as `x.id IN <sql>`: one query, and the table stays its owner's.
 */
export interface IdSubquery {
  sql: string;
  parameters: Record<string, unknown>;
}
