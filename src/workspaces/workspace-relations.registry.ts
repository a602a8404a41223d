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
  /**
   * The readable runs among `ids` and, after them, what `nested` names of each (`plan`,
   * `configuration-version`: `include=current_run.plan`), each type read once for all of them.
   * `origin` is where the client reached us (a plan's `log-read-url`).
   */
  readableWith(
    p: Principal,
    ids: string[],
    nested: readonly string[],
    origin: string,
  ): Promise<ResourceObject[]>;
  /**
   * Each workspace's current configuration version (its newest uploaded one that is not
   * provisional), serialized, by workspace id; only those the principal may read.
   */
  currentConfigurationVersions(
    p: Principal,
    workspaceIds: readonly string[],
  ): Promise<Map<string, ResourceObject>>;
}

/** What the state versions module tells workspaces about their current state. */
export interface WorkspaceStateSource {
  /** The finalized state versions among `ids`, serialized. */
  versions(ids: string[]): Promise<ResourceObject[]>;
  /** The outputs of each of these versions as `workspace-outputs` (sensitive values null), by version id. */
  outputs(versionIds: string[]): Promise<Map<string, ResourceObject[]>>;
}

/**
 * The runs and teams modules sit above workspaces (they import it): they register here at
 * start-up how to find a workspace's current run and how to show runs and teams in `included`
 * (`current_run` and its plan and configuration version, `current_configuration_version`,
 * `locked_by`) instead of being imported by it; the state versions module, how to
 * show a workspace's current state version and its outputs (`current-state-version`, `outputs`).
 */
@Injectable()
export class WorkspaceRelationsRegistry {
  private runs?: WorkspaceRunsSource;
  private readonly holders = new Map<string, ReadableResources>();
  private state?: WorkspaceStateSource;

  registerRuns(source: WorkspaceRunsSource): void {
    this.runs = source;
  }

  registerState(source: WorkspaceStateSource): void {
    this.state = source;
  }

  /** How to show lock holders of one type (`teams`, `runs`, …) in `included`. */
  registerHolders(type: string, readable: ReadableResources): void {
    this.holders.set(type, readable);
  }

  async currentRunIds(workspaceIds: readonly string[]): Promise<Map<string, string>> {
    if (!this.runs || !workspaceIds.length) return new Map();
    return this.runs.currentRunIds(workspaceIds);
  }

  /** Runs in `included` with what `nested` names of them (`plan`, `configuration-version`). */
  readableRunsWith(
    p: Principal,
    ids: string[],
    nested: readonly string[],
    origin: string,
  ): Promise<ResourceObject[]> {
    if (!this.runs || !ids.length) return Promise.resolve([]);
    return nested.length ? this.runs.readableWith(p, ids, nested, origin) : this.runs.readable(p, ids);
  }

  async currentConfigurationVersions(
    p: Principal,
    workspaceIds: readonly string[],
  ): Promise<Map<string, ResourceObject>> {
    if (!this.runs || !workspaceIds.length) return new Map();
    return this.runs.currentConfigurationVersions(p, workspaceIds);
  }

  readableHolders(p: Principal, type: string, ids: string[]): Promise<ResourceObject[]> {
    const readable = this.holders.get(type);
    return readable && ids.length ? readable(p, ids) : Promise.resolve([]);
  }

  stateVersions(ids: string[]): Promise<ResourceObject[]> {
    return this.state && ids.length ? this.state.versions(ids) : Promise.resolve([]);
  }

  async stateOutputs(versionIds: string[]): Promise<Map<string, ResourceObject[]>> {
    if (!this.state || !versionIds.length) return new Map();
    return this.state.outputs(versionIds);
  }
}
