/** The oldest Node.js line Plinth supports: Node 20 reached its end of life in April 2026. */
export const OLDEST_SUPPORTED_NODE_MAJOR = 22;

/**
 * Why a Node.js version is not on a supported line, or undefined when it is. Supported: the
 * even-numbered (long-term support) lines from OLDEST_SUPPORTED_NODE_MAJOR on. Odd-numbered lines
 * are never LTS and lose support about eight months after their release.
 */
export function unsupportedNodeLine(version: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (!Number.isInteger(major)) return undefined;
  const advice = `run an even-numbered (LTS) line from Node.js ${OLDEST_SUPPORTED_NODE_MAJOR} on`;
  if (major < OLDEST_SUPPORTED_NODE_MAJOR) {
    return `Node.js ${version} is not supported: its line has reached its end of life and gets no security fixes; ${advice}`;
  }
  if (major % 2 === 1) {
    return `Node.js ${version} is not supported: odd-numbered lines are never long-term support and end within months; ${advice}`;
  }
  return undefined;
}
