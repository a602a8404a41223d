import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { JobVariable } from '../runs/protocol/agent-protocol.types';

/** The file the executor writes a job's terraform variables to, in the configuration's directory. */
export const TFVARS_FILE = 'plinth.auto.tfvars';

/** What a masked value shows in an uploaded log. */
export const MASK = '***';

/** A name the tool accepts as a variable's (an HCL identifier). */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * A value as a quoted HCL string: quotes, backslashes and control characters escaped, and template
 * sequences (`${`, `%{`) doubled, so the tool reads back exactly the value given.
 */
export function hclString(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    const next = value[i + 1];
    if (c === '"') out += '\\"';
    else if (c === '\\') out += '\\\\';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if ((c === '$' || c === '%') && next === '{') out += c + c;
    else if (c < ' ' || c === '\u007f') out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `"${out}"`;
}

/**
 * The tfvars text of a job's terraform variables: HCL values as they are, others as quoted strings,
 * one per line in the order given. Null when the job has none. A key the tool could not read is
 * an error naming it.
 */
export function tfvarsContent(variables: readonly JobVariable[]): string | null {
  const terraform = variables.filter((v) => v.category === 'terraform');
  if (!terraform.length) return null;
  return terraform
    .map((v) => {
      if (!IDENTIFIER.test(v.key))
        throw new Error(`the variable key ${JSON.stringify(v.key)} is not a valid name`);
      return `${v.key} = ${v.hcl ? v.value : hclString(v.value)}\n`;
    })
    .join('');
}

/** Writes the job's terraform variables to `plinth.auto.tfvars` in `dir` (nothing when there are none). */
export async function writeTfvars(dir: string, variables: readonly JobVariable[]): Promise<void> {
  const content = tfvarsContent(variables);
  if (content !== null) await writeFile(join(dir, TFVARS_FILE), content, { mode: 0o600 });
}

/** The job's env variables, for the commands' environment (never the executor's own). */
export function envVariables(variables: readonly JobVariable[]): Record<string, string> {
  return Object.fromEntries(variables.filter((v) => v.category === 'env').map((v) => [v.key, v.value]));
}

/** The values to mask: the sensitive ones, longest first, empty ones left out. */
export function sensitiveValues(variables: readonly JobVariable[] | undefined): string[] {
  const values = new Set((variables ?? []).filter((v) => v.sensitive && v.value !== '').map((v) => v.value));
  return [...values].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of each secret replaced by `***` (longer secrets first). */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].filter((s) => s !== '').sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(MASK);
  }
  return out;
}

/**
 * Masks a stream of output chunks: a secret split across two chunks is masked too, because the
 * end of a chunk that could begin a secret is held back until the next chunk (or `end`).
 */
export class SecretMask {
  private held = '';
  /** Output comes as bytes: a character split between two chunks is joined before masking. */
  private readonly decoder = new StringDecoder('utf8');

  constructor(private readonly secrets: readonly string[]) {}

  /** The masked text that can be shown now; with nothing to mask, the chunk as it came. */
  push(chunk: Buffer | string): Buffer | string {
    if (!this.secrets.length) return chunk;
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const masked = maskSecrets(this.held + text, this.secrets);
    const keep = this.heldBack(masked);
    this.held = masked.slice(masked.length - keep);
    return masked.slice(0, masked.length - keep);
  }

  /** What was held back, masked: the output ended. */
  end(): string {
    if (!this.secrets.length) return '';
    const rest = maskSecrets(this.held + this.decoder.end(), this.secrets);
    this.held = '';
    return rest;
  }

  /** The length of the longest end of `text` that is the beginning of some secret. */
  private heldBack(text: string): number {
    let keep = 0;
    for (const secret of this.secrets) {
      for (let n = Math.min(secret.length - 1, text.length); n > keep; n--) {
        if (text.endsWith(secret.slice(0, n))) {
          keep = n;
          break;
        }
      }
    }
    return keep;
  }
}
