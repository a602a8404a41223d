import { addressProblems, DEFAULT_RUN_OPTIONS, MAX_RUN_ADDRESSES, optionProblems } from './run-options';

describe('run options', () => {
  describe('resource addresses', () => {
    it('accepts addresses with indexes, keys and modules', () => {
      expect(
        addressProblems('target-addrs', [
          'aws_instance.web',
          'module.net.aws_subnet.a[0]',
          'aws_instance.by_key["a b"]',
        ]),
      ).toEqual([]);
    });

    it('points at each bad entry: not a string, blank, padded, a flag, control characters, repeated, too long', () => {
      const entries = [1, '  ', ' a.b', '-destroy', 'a.b\nc', 'x.y', 'x.y', 'r.'.padEnd(1001, 'x')];
      expect(addressProblems('replace-addrs', entries)).toEqual([
        { detail: 'Replace addrs entries must be strings', pointer: '/data/attributes/replace-addrs/0' },
        { detail: "Replace addrs entries can't be blank", pointer: '/data/attributes/replace-addrs/1' },
        {
          detail: 'Replace addrs entries must be resource addresses',
          pointer: '/data/attributes/replace-addrs/2',
        },
        {
          detail: 'Replace addrs entries must be resource addresses',
          pointer: '/data/attributes/replace-addrs/3',
        },
        {
          detail: 'Replace addrs entries must be resource addresses',
          pointer: '/data/attributes/replace-addrs/4',
        },
        { detail: 'Replace addrs lists x.y twice', pointer: '/data/attributes/replace-addrs/6' },
        {
          detail: 'Replace addrs entries are too long (maximum is 1000 characters)',
          pointer: '/data/attributes/replace-addrs/7',
        },
      ]);
    });

    it('bounds how many addresses a run may list', () => {
      const many = Array.from({ length: MAX_RUN_ADDRESSES + 1 }, (_, i) => `null_resource.r${i}`);
      expect(addressProblems('target-addrs', many)).toEqual([
        { detail: 'Target addrs may list at most 100 addresses', pointer: '/data/attributes/target-addrs' },
      ]);
      expect(addressProblems('target-addrs', many.slice(1))).toEqual([]);
    });
  });

  describe('rules between options', () => {
    const pointers = (options: Partial<typeof DEFAULT_RUN_OPTIONS>, planOnly = false) =>
      optionProblems({ ...DEFAULT_RUN_OPTIONS, ...options }, planOnly).map((p) => p.pointer);

    it('accepts the defaults and each option alone', () => {
      expect(pointers({})).toEqual([]);
      expect(pointers({ refreshOnly: true })).toEqual([]);
      expect(
        pointers({ refresh: false, targetAddrs: ['a.b'], replaceAddrs: ['c.d'], isDestroy: true }),
      ).toEqual([]);
      expect(pointers({ savePlan: true, allowEmptyApply: true })).toEqual([]);
      expect(pointers({ terraformVersion: '1.9.5' }, true)).toEqual([]);
    });

    it('refuses a refresh-only run that destroys, skips the refresh or replaces', () => {
      expect(pointers({ refreshOnly: true, isDestroy: true })).toEqual(['/data/attributes/refresh-only']);
      expect(pointers({ refreshOnly: true, refresh: false })).toEqual(['/data/attributes/refresh-only']);
      expect(pointers({ refreshOnly: true, replaceAddrs: ['a.b'] })).toEqual([
        '/data/attributes/replace-addrs',
      ]);
    });

    it('takes a tool version only on plan-only runs, and only a release version', () => {
      expect(pointers({ terraformVersion: '1.9.5' })).toEqual(['/data/attributes/terraform-version']);
      expect(pointers({ terraformVersion: 'latest' }, true)).toEqual(['/data/attributes/terraform-version']);
      expect(pointers({ terraformVersion: '1.10.0-beta1' }, true)).toEqual([]);
    });

    it('refuses to save the plan of a plan-only run', () => {
      expect(pointers({ savePlan: true }, true)).toEqual(['/data/attributes/save-plan']);
    });
  });
});
