import { spawn } from 'node:child_process';

export interface CommandResult {
  /** The exit code, or null when a signal ended the command. */
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningCommand {
  done: Promise<CommandResult>;
  /** Ends the command and everything it started: SIGTERM to its process group, SIGKILL after the grace. */
  stop(): void;
}

/**
 * Runs one operator command through `sh -c` in its own process group, so stopping it also stops
 * the tool it started. Output (stdout and stderr, interleaved as they come) goes to `onOutput`.
 * `args` are the command's positional parameters (`"$@"`), each one word whatever it holds.
 */
export function runCommand(
  command: string,
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    onOutput(chunk: Buffer): void;
    graceMs?: number;
    args?: readonly string[];
  },
): RunningCommand {
  const child = spawn('/bin/sh', ['-c', command, 'sh', ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', options.onOutput);
  child.stderr.on('data', options.onOutput);
  let killTimer: NodeJS.Timeout | undefined;
  const done = new Promise<CommandResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (killTimer) clearTimeout(killTimer);
      resolve({ code, signal });
    });
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  return {
    done,
    stop() {
      signalGroup('SIGTERM');
      killTimer ??= setTimeout(() => signalGroup('SIGKILL'), options.graceMs ?? 10_000);
    },
  };
}
