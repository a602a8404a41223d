import { unsupportedNodeLine } from './node-support';

describe('unsupportedNodeLine', () => {
  it.each(['v22.0.0', 'v22.13.1', 'v24.11.0', 'v26.1.0', '22.5.0'])(
    'accepts the LTS line of %s',
    (version) => {
      expect(unsupportedNodeLine(version)).toBeUndefined();
    },
  );

  it.each(['v20.20.2', 'v20.19.0', 'v18.20.4', 'v16.0.0'])('names %s as past its end of life', (version) => {
    expect(unsupportedNodeLine(version)).toBe(
      `Node.js ${version} is not supported: its line has reached its end of life and gets no security fixes; ` +
        'run an even-numbered (LTS) line from Node.js 22 on',
    );
  });

  it.each(['v23.11.0', 'v25.2.1', 'v27.0.0'])(
    'names the odd-numbered line of %s as never long-term',
    (version) => {
      expect(unsupportedNodeLine(version)).toBe(
        `Node.js ${version} is not supported: odd-numbered lines are never long-term support and end within months; ` +
          'run an even-numbered (LTS) line from Node.js 22 on',
      );
    },
  );

  it('says nothing about a version it cannot read', () => {
    expect(unsupportedNodeLine('nightly')).toBeUndefined();
  });
});
