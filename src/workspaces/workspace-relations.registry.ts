import { Injectable } from '@nestjs/common';
import { Principal } from '../common/auth/principal';
import { ResourceObject } from '../common/jsonapi/document';

/** Serialized resources among `ids` that the principal may read (the others are left out). */
export type ReadableResources = (p: Principal, ids: string[]) => Promise<ResourceObject[]>;

/** What the runs module tells workspaces about their runs. */
export interface WorkspaceRunsSource {
  /** Each workspace's current run (the newest that has left the queue), for those that have one. */
  currentRunIds(workspaceIds: readonly string[]): Promise<Map<string, string>>;
  readable: ReadableResources;
}

/**
 * The runs and teams modules sit above workspaces (they import it): they register here at
 * start-up how to find a workspace's current run and how to show runs and teams in `included`
 * (`current_run`, `locked_by`) instead of being imported by it.
 */
@Injectable()
export class WorkspaceRelationsRegistry {
  private runs?: WorkspaceRunsSource;
  private readonly holders = new Map<string, ReadableResources>();

  registerRuns(source: WorkspaceRunsSource): void {
    this.runs = source;
  }

  /** How to show lock holders of one type (`teams`, `runs`, …) in `included`. */
  registerHolders(type: string, readable: ReadableResources): void {
    this.holders.set(type, readable);
  }

  async currentRunIds(workspaceIds: readonly string[]): Promise<Map<string, string>> {
    if (!this.runs || !workspaceIds.length) return new Map();
    return this.runs.currentRunIds(workspaceIds);
  }

  readableRuns(p: Principal, ids: string[]): Promise<ResourceObject[]> {
    return this.runs && ids.length ? this.runs.readable(p, ids) : Promise.resolve([]);
  }

  readableHolders(p: Principal, type: string, ids: string[]): Promise<ResourceObject[]> {
    const readable = this.holders.get(type);
    return readable && ids.length ? readable(p, ids) : Promise.resolve([]);
  }
}
