import { createHash } from 'node:crypto';
import { invalid } from '../common/errors/domain-error';
import { CreateStateVersionAttributes } from './dto/state-version-attributes.dto';
import { declarationMismatch, readStateFile, StateFile } from './state-file';

/*
 * The checks a state version's content passes before anything is stored: inline in the create
 * request (base64, MD5, the state file against what the request declares, JSON that parses) or
 * uploaded later through the version's one-time links. Each refusal is a 422 naming what failed.
 */

const ATTRIBUTE = (name: string) => `/data/attributes/${name}`;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The base64 attribute decoded; a 422 pointing at it when it is not base64. */
function decoded(value: string, attribute: string): Buffer {
  if (!BASE64.test(value)) throw invalid(`${attribute} must be base64 encoded`, ATTRIBUTE(attribute));
  return Buffer.from(value, 'base64');
}

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

function jsonProblem(bytes: Buffer): string | null {
  try {
    JSON.parse(bytes.toString('utf8'));
    return null;
  } catch {
    return 'is not valid JSON';
  }
}

/** What a create request declares of its state: the lock and serial checks are made on it. */
export interface DeclaredVersion {
  serial: number;
  /** Lower-case hex. */
  md5: string;
  lineage: string | null;
  force: boolean;
}

/** A create request's content, decoded and checked; the state and its JSON form when sent inline. */
export interface InlineState {
  declared: DeclaredVersion;
  state: Buffer | null;
  json: Buffer | null;
  /** The inline state read (null without one). */
  file: StateFile | null;
}

/**
 * A create request's attributes decoded and checked, in the order a client learns most from:
 * encodings, sizes (`checkSize` throws past the limit), JSON without state, the MD5, the state
 * against what the request declares, the JSON form.
 */
export function inlineState(
  attrs: CreateStateVersionAttributes,
  checkSize: (bytes: Buffer) => void,
): InlineState {
  const declared = {
    serial: attrs.serial,
    md5: attrs.md5.toLowerCase(),
    lineage: attrs.lineage ?? null,
    force: attrs.force ?? false,
  };
  const state = attrs.state === undefined ? null : decoded(attrs.state, 'state');
  const json = attrs['json-state'] === undefined ? null : decoded(attrs['json-state'], 'json-state');
  if (attrs['json-state-outputs'] !== undefined) {
    const problem = jsonProblem(decoded(attrs['json-state-outputs'], 'json-state-outputs'));
    if (problem) throw invalid(`json-state-outputs ${problem}`, ATTRIBUTE('json-state-outputs'));
  }
  for (const bytes of [state, json]) if (bytes) checkSize(bytes);
  if (json && !state) throw invalid('json-state needs state in the same request', ATTRIBUTE('json-state'));
  if (state && md5(state) !== declared.md5) {
    throw invalid('Md5 does not match the MD5 hash of the decoded state', ATTRIBUTE('md5'));
  }
  const file = state ? checkedState(state, declared, 'state') : null;
  const jsonProblemText = json && jsonProblem(json);
  if (jsonProblemText) throw invalid(`json-state ${jsonProblemText}`, ATTRIBUTE('json-state'));
  return { declared, state, json, file };
}

/** A state uploaded to a pending version's link, checked against what the version was created with. */
export function uploadedState(
  bytes: Buffer,
  version: { md5: string; serial: number; lineage: string | null },
): StateFile {
  if (md5(bytes) !== version.md5) {
    throw invalid(
      'The MD5 hash of the uploaded state does not match the md5 the state version was created with',
    );
  }
  return checkedState(bytes, version, null);
}

/** A JSON state uploaded to a version's link: it must parse. */
export function checkUploadedJson(bytes: Buffer): void {
  const problem = jsonProblem(bytes);
  if (problem) throw invalid(`The JSON state ${problem}`);
}

/** The state read and checked against what its version declares (422 otherwise). */
function checkedState(
  bytes: Buffer,
  declared: { serial: number; lineage: string | null },
  attribute: string | null,
): StateFile {
  const pointer = attribute ? ATTRIBUTE(attribute) : undefined;
  const reading = readStateFile(bytes);
  if (!reading.ok) throw invalid(`The state was refused: ${reading.reason}`, pointer);
  const mismatch = declarationMismatch(reading.state, declared);
  if (mismatch) throw invalid(`The state was refused: ${mismatch}`, pointer);
  return reading.state;
}
