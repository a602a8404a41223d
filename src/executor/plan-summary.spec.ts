import { countApplyChanges, countPlanChanges } from './plan-summary';

const plan = (...actions: unknown[][]) =>
  JSON.stringify({ resource_changes: actions.map((a) => ({ change: { actions: a } })) });

describe('countPlanChanges', () => {
  it('counts creates, updates and deletes, and a replacement as one of each side', () => {
    expect(countPlanChanges(plan(['create'], ['update'], ['delete'], ['delete', 'create']))).toEqual({
      'has-changes': true,
      'resource-additions': 2,
      'resource-changes': 1,
      'resource-destructions': 2,
      'resource-imports': 0,
    });
  });

  it('reports no changes for no-ops, reads and a plan without resource changes', () => {
    const none = {
      'has-changes': false,
      'resource-additions': 0,
      'resource-changes': 0,
      'resource-destructions': 0,
      'resource-imports': 0,
    };
    expect(countPlanChanges(plan(['no-op'], ['read']))).toEqual(none);
    expect(countPlanChanges('{"format_version":"1.2"}')).toEqual(none);
  });

  it('counts imports', () => {
    const json = JSON.stringify({
      resource_changes: [{ change: { actions: ['no-op'], importing: { id: 'i-1' } } }],
    });
    expect(countPlanChanges(json)).toMatchObject({ 'has-changes': true, 'resource-imports': 1 });
  });

  it('says so when the plan JSON is not JSON', () => {
    expect(() => countPlanChanges('Error: no plan')).toThrow('the plan JSON is not valid JSON');
  });
});

describe('countApplyChanges', () => {
  it("reads the tool's closing summary, the last one when there are several", () => {
    const log =
      'Apply complete! Resources: 9 added, 9 changed, 9 destroyed.\n' +
      'Apply complete! Resources: 1 imported, 2 added, 3 changed, 4 destroyed.\n';
    expect(countApplyChanges(log)).toEqual({
      'has-changes': true,
      'resource-additions': 2,
      'resource-changes': 3,
      'resource-destructions': 4,
      'resource-imports': 1,
    });
  });

  it('gives null when the log has no summary', () => {
    expect(countApplyChanges('Error: something broke')).toBeNull();
  });
});
