import { Injectable } from '@nestjs/common';
import { Principal } from '../common/auth/principal';
import { PlanJson, redactPlanJson } from './plan-redaction';
import { RunLinks } from './run-links';
import { RunsService } from './runs.service';

/** What the JSON output routes of a plan answer. */
@Injectable()
export class PlanOutputService {
  constructor(
    private readonly runs: RunsService,
    private readonly links: RunLinks,
  ) {}

  /**
   * The plan's JSON with every sensitive value nulled (plan-redaction.ts); undefined while the
   * plan has not finished or when its executor sent no JSON, or none that parses. Same access as
   * the JSON itself: admin on the workspace.
   */
  async redacted(p: Principal, planId: string): Promise<PlanJson | undefined> {
    const plan = await this.runs.requirePlanOutput(p, planId);
    if (plan.status !== 'finished') return undefined;
    const raw = await this.links.readFile(plan.runId, plan.id, 'plan-json');
    if (raw === null) return undefined;
    let parsed: PlanJson;
    try {
      parsed = JSON.parse(raw) as PlanJson;
    } catch {
      return undefined;
    }
    return redactPlanJson(parsed);
  }
}
