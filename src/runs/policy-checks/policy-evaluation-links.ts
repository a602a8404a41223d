import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { notFound } from '../../common/errors/domain-error';
import { JOB_LINK_SECONDS } from '../run-links';
import { SignedLinks } from '../../storage/signed-links';
import { UploadRegistry } from '../../storage/upload-registry';
import { PolicyChecksRepository } from './policy-checks.repository';

const CODE = 'policy-evaluation-code-download';
const BUNDLE = 'policy-evaluation-bundle-download';

/**
 * The signed links a policy-evaluation job carries: each snapshotted policy's code, or a
 * versioned set's archive. Only executors get them (with the job); run readers never see code.
 */
@Injectable()
export class PolicyEvaluationLinks implements OnModuleInit {
  constructor(
    private readonly links: SignedLinks,
    private readonly registry: UploadRegistry,
    private readonly repo: PolicyChecksRepository,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.registry.registerDownload(CODE, {
      locate: async (outcomeId) => {
        const outcome = await this.repo.findOutcome(outcomeId);
        if (!outcome?.codeKey) throw notFound();
        return {
          key: outcome.codeKey,
          filename: outcome.policyName,
          contentType: 'text/plain; charset=utf-8',
        };
      },
    });
    this.registry.registerDownload(BUNDLE, {
      locate: async (evaluationId) => {
        const evaluation = await this.repo.findEvaluation(evaluationId);
        if (!evaluation?.bundleKey) throw notFound();
        return {
          key: evaluation.bundleKey,
          filename: `${evaluation.policySetVersionId ?? evaluation.id}.tar.gz`,
          contentType: 'application/gzip',
        };
      },
    });
  }

  code(origin: string, outcomeId: string): string {
    return this.links.url(origin, { purpose: CODE, resourceId: outcomeId, expiresAt: this.expiry() });
  }

  bundle(origin: string, evaluationId: string): string {
    return this.links.url(origin, { purpose: BUNDLE, resourceId: evaluationId, expiresAt: this.expiry() });
  }

  private expiry(): number {
    return Math.floor(this.clock.now().getTime() / 1000) + JOB_LINK_SECONDS;
  }
}
