import { Job, ProtocolClient, Registration } from './protocol-client';
import { sleep } from './retry';

/** The longest the executor asks a claim to wait for a job, whatever the server allows. */
const MAX_CLAIM_WAIT_SECONDS = 30;

/** Slows down after failed polls (Plinth restarting, network down), up to a minute between tries. */
const MAX_BACKOFF_MS = 60_000;

/**
 * Where the executor's next job comes from: the one Plinth handed over with the last report
 * (`finish?next=true`), or else a claim, waiting in it when Plinth offers that (a long poll) and
 * pausing as a poller does when it does not.
 */
export class JobSource {
  private handed: Job | null = null;
  private failures = 0;
  private readonly pollMs: number;
  private readonly waitSeconds: number;

  constructor(
    private readonly client: ProtocolClient,
    private readonly log: (message: string) => void,
    registration: Registration,
  ) {
    this.pollMs = registration['poll-interval-seconds'] * 1000;
    // A server that does not offer long polls (no claim-wait-max-seconds) is polled every
    // poll-interval-seconds.
    this.waitSeconds = Math.min(registration['claim-wait-max-seconds'] ?? 0, MAX_CLAIM_WAIT_SECONDS);
  }

  /** Whether a job was handed over and not taken yet: it is claimed for this agent, so it must run. */
  get holdsJob(): boolean {
    return this.handed !== null;
  }

  /** Keeps the job a report was answered with, to be taken next without a claim. */
  hand(job: Job | null): void {
    if (job) this.handed = job;
  }

  /**
   * The job handed over, or one claim's. Null when none came (after the pause before the next
   * try) or when `signal` stopped the wait.
   */
  async next(signal?: AbortSignal): Promise<Job | null> {
    const handed = this.handed;
    if (handed) {
      this.handed = null;
      return handed;
    }
    let job: Job | null;
    const started = Date.now();
    try {
      job = await this.client.claim(this.waitSeconds, signal);
      this.failures = 0;
    } catch (err) {
      // Stopped while waiting for a job: hang up, nothing to report.
      if (signal?.aborted) return null;
      this.failures++;
      this.log(`claim failed: ${(err as Error).message}`);
      await sleep(Math.min(this.pollMs * 2 ** this.failures, MAX_BACKOFF_MS), signal);
      return null;
    }
    // Answered before the wait was up (Plinth is stopping, or does not wait): pause as a poller does.
    if (!job && (this.waitSeconds === 0 || Date.now() - started < this.waitSeconds * 1000)) {
      await sleep(this.pollMs, signal);
    }
    return job;
  }
}
