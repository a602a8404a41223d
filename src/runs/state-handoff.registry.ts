import { Injectable } from '@nestjs/common';
import type { JobLinks } from './protocol/agent-protocol.types';

/** The state links of one plan or apply job's claim. */
export type JobStateLinks = Pick<JobLinks, 'state' | 'state-upload'>;

/**
 * How a run's executor gets the workspace's state and hands the new state back, as the runs module
 * sees it. The state-versions module sits above runs (it reads runs to name them on its versions),
 * so it registers its handoff here at start-up instead of being imported.
 */
export interface StateHandoff {
  /**
   * Signed links for a claimed plan or apply job: a GET of the workspace's current state version
   * (as the workspace points at it; null while it has none) and, for apply jobs, a PUT of the new
   * state. Links expire at `expiresAt` (epoch seconds).
   */
  links(
    origin: string,
    job: { id: string; kind: 'plan' | 'apply' },
    workspace: { currentStateVersionId: string | null },
    expiresAt: number,
  ): JobStateLinks;
}

/** Holds the state handoff the state-versions module registers; without one, jobs carry no state links. */
@Injectable()
export class StateHandoffRegistry {
  private handoff?: StateHandoff;

  register(handoff: StateHandoff): void {
    this.handoff = handoff;
  }

  /** The registered handoff; undefined in an application without state (some service tests). */
  get(): StateHandoff | undefined {
    return this.handoff;
  }
}
