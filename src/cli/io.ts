import { Type } from '@nestjs/common';

/** Where a command writes: lines to standard output (results) and standard error (problems). */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * What the commands need from the application: its root module, loaded only by the commands that
 * boot it (the entry point at the root of src/ passes it in; nothing under cli/ imports it).
 */
export interface CliContext {
  appModule: () => Promise<Type<unknown>>;
}

/** A mistake in how the command was called: exit status 2 and the usage text. */
export class UsageError extends Error {}
