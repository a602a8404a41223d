import { createHash } from 'node:crypto';
import { randomBase62 } from '../ids';

/** A new token secret in the familiar `<id>.<product>v1.<secret>` shape. */
export function newTokenSecret(): string {
  return `${randomBase62(14)}.plinthv1.${randomBase62(48)}`;
}

export function tokenDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
