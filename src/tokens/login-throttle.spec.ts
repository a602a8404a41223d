import { LoginThrottle } from './login-throttle';

describe('LoginThrottle', () => {
  it('lets an address make its budget of attempts in a minute, then says how long to wait', () => {
    const throttle = new LoginThrottle(3);
    const t0 = 1_000_000;
    expect([1, 2, 3].map(() => throttle.attempt('10.0.0.1', t0))).toEqual([0, 0, 0]);
    expect(throttle.attempt('10.0.0.1', t0 + 20_000)).toBe(40);
    expect(throttle.attempt('10.0.0.2', t0 + 20_000)).toBe(0);
    expect(throttle.attempt('10.0.0.1', t0 + 60_000)).toBe(0);
  });

  it('counts nothing when the budget is 0', () => {
    const throttle = new LoginThrottle(0);
    for (let i = 0; i < 100; i++) expect(throttle.attempt('10.0.0.1')).toBe(0);
  });
});
