import { RunJobEntity } from '../entities/run-job.entity';
import { ClaimedJobs } from './claimed-jobs';

function job(id: string, agentId = 'agent-a'): RunJobEntity {
  return Object.assign(new RunJobEntity(), { id, agentId, kind: 'plan', runId: 'run-1', status: 'claimed' });
}

describe('ClaimedJobs', () => {
  it('hands a copy of a kept job to the agent that claimed it, and to no other', () => {
    const claimed = new ClaimedJobs();
    claimed.keep(job('job-1'));
    const found = claimed.find('job-1', 'agent-a');
    expect(found).toMatchObject({ id: 'job-1', kind: 'plan', runId: 'run-1' });
    found!.status = 'finished';
    expect(claimed.find('job-1', 'agent-a')?.status).toBe('claimed');
    expect(claimed.find('job-1', 'agent-b')).toBeUndefined();
    expect(claimed.find('job-2', 'agent-a')).toBeUndefined();
  });

  it('lets a job go once told, and the oldest past its bound', () => {
    const claimed = ClaimedJobs.bounded(2);
    claimed.keep(job('job-1'));
    claimed.keep(job('job-2'));
    claimed.keep(job('job-3'));
    expect(claimed.size).toBe(2);
    expect(claimed.find('job-1', 'agent-a')).toBeUndefined();
    claimed.release('job-2');
    expect(claimed.find('job-2', 'agent-a')).toBeUndefined();
    expect(claimed.find('job-3', 'agent-a')?.id).toBe('job-3');
  });
});
