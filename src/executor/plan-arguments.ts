import type { JobPayload } from '../runs/protocol/agent-protocol.types';

type PlanOptions = Pick<
  JobPayload,
  'is-destroy' | 'refresh' | 'refresh-only' | 'target-addrs' | 'replace-addrs'
>;

/**
 * The tool's planning flags for a plan job: `-destroy`, `-refresh-only`, `-refresh=false`, one
 * `-target=` per target and one `-replace=` per replacement. They reach the plan command as its
 * positional parameters (`"$@"`), one argument each, whatever characters an address has. An apply
 * runs the saved plan, which carries them (the tool refuses planning flags next to a saved plan).
 */
export function planArguments(job: PlanOptions): string[] {
  return [
    ...(job['is-destroy'] ? ['-destroy'] : []),
    ...(job['refresh-only'] ? ['-refresh-only'] : []),
    ...(job.refresh === false ? ['-refresh=false'] : []),
    ...(job['target-addrs'] ?? []).map((a) => `-target=${a}`),
    ...(job['replace-addrs'] ?? []).map((a) => `-replace=${a}`),
  ];
}

/**
 * The flags an operator's plan command would drop: none when it passes its positional parameters
 * on (`"$@"` or `$*`); otherwise all of them, except `-destroy` for a command that reads
 * PLINTH_IS_DESTROY itself (the form earlier releases documented).
 */
export function droppedArguments(command: string, args: readonly string[]): string[] {
  if (/\$(?:@|\*|\{@\}|\{\*\})/.test(command)) return [];
  const readsDestroy = command.includes('PLINTH_IS_DESTROY');
  return args.filter((a) => !(a === '-destroy' && readsDestroy));
}
