export interface ResourceIdentifier {
  id: string;
  type: string;
}

export interface RelationshipObject {
  data?: ResourceIdentifier | ResourceIdentifier[] | null;
  links?: Record<string, string>;
}

export interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, RelationshipObject>;
  links?: Record<string, string | null>;
}

export interface PageResult {
  number: number;
  size: number;
  totalCount: number;
}

/** De-duplicated `included` array: the first copy of each (type, id) wins. */
export class Included {
  private readonly byKey = new Map<string, ResourceObject>();

  add(...resources: ResourceObject[]): this {
    for (const r of resources) {
      const key = `${r.type}\u0000${r.id}`;
      if (!this.byKey.has(key)) this.byKey.set(key, r);
    }
    return this;
  }

  toArray(): ResourceObject[] {
    return [...this.byKey.values()];
  }
}

/** A single-resource document; JsonApiExpressAdapter writes it with the JSON:API media type. */
export class ResourceDocument {
  constructor(
    readonly data: ResourceObject | null,
    readonly included?: ResourceObject[],
    readonly meta?: Record<string, unknown>,
  ) {}
}

/** A paginated collection; JsonApiExpressAdapter adds absolute `links` and `meta.pagination`. */
export class CollectionDocument {
  constructor(
    readonly data: ResourceObject[],
    readonly page: PageResult,
    readonly included?: ResourceObject[],
    readonly extraLinks?: Record<string, string>,
    /** Written beside `pagination` in `meta` (e.g. `status-counts`). */
    readonly meta?: Record<string, unknown>,
  ) {}
}

export function identifier(type: string, id: string): ResourceIdentifier {
  return { id, type };
}

export function toOne(type: string, id: string | null | undefined): RelationshipObject {
  return { data: id ? { id, type } : null };
}

export function toMany(type: string, ids: readonly string[]): RelationshipObject {
  return { data: ids.map((id) => ({ id, type })) };
}
