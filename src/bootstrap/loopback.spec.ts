import { isLoopback } from './loopback';

describe('isLoopback', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('accepts %s', (a) => {
    expect(isLoopback(a)).toBe(true);
  });

  it.each(['10.0.0.1', '192.168.1.1', '::ffff:10.0.0.1', 'fe80::1', '', undefined])('refuses %s', (a) => {
    expect(isLoopback(a)).toBe(false);
  });
});
