import { ConfirmedVersions } from './confirmed-versions';

describe('ConfirmedVersions', () => {
  it('knows the versions noted, and nothing else', () => {
    const known = new ConfirmedVersions();
    known.note('cv-1');
    expect(known.has('cv-1')).toBe(true);
    expect(known.has('cv-2')).toBe(false);
  });

  it('forgets the oldest past its bound, so the next confirmation goes to the database again', () => {
    const known = new ConfirmedVersions(2);
    known.note('cv-1');
    known.note('cv-2');
    known.note('cv-2');
    known.note('cv-3');
    expect([known.has('cv-1'), known.has('cv-2'), known.has('cv-3')]).toEqual([false, true, true]);
  });
});
