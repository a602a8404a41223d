import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Clock } from '../common/clock';
import { DomainError, notFound } from '../common/errors/domain-error';
import { AppConfig } from '../config/app-config';

export interface LinkClaims {
  /** What the link may do, e.g. `policy-set-version-upload`, `provider-binary-download`. */
  purpose: string;
  /** The resource the link acts on. */
  resourceId: string;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');

/** Tokens remembered by their claims; past this many the memory starts over. */
const REMEMBERED_TOKENS = 10_000;

/**
 * Capability URLs: an HMAC over (purpose, resource, expiry) with SIGNING_SECRET. They are accepted
 * without an Authorization header; verification is constant-time.
 */
@Injectable()
export class SignedLinks {
  private readonly tokens = new Map<string, string>();

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * The token of these claims. A link's claims are fixed per resource (its expiry derives from the
   * resource, not from the clock), so a resource shown again gets the same token: remembered
   * rather than signed again on every answer that carries it.
   */
  token(claims: LinkClaims): string {
    const key = `${claims.purpose}\n${claims.resourceId}\n${claims.expiresAt}`;
    let token = this.tokens.get(key);
    if (token === undefined) {
      const payload = b64(JSON.stringify({ p: claims.purpose, r: claims.resourceId, e: claims.expiresAt }));
      token = `${payload}.${this.mac(payload)}`;
      if (this.tokens.size >= REMEMBERED_TOKENS) this.tokens.clear();
      this.tokens.set(key, token);
    }
    return token;
  }

  /** Absolute URL under UPLOAD_URL, else BASE_URL, else the origin the client used. */
  url(origin: string, claims: LinkClaims): string {
    const base = this.config.uploadUrl ?? this.config.baseUrl ?? origin;
    return `${base}/uploads/${this.token(claims)}`;
  }

  /** The claims of a valid token; 404 for anything forged or malformed, 410 once expired. */
  verify(token: string): LinkClaims {
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) throw notFound();
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw notFound();
    let parsed: { p?: unknown; r?: unknown; e?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
    } catch {
      throw notFound();
    }
    if (typeof parsed.p !== 'string' || typeof parsed.r !== 'string' || typeof parsed.e !== 'number')
      throw notFound();
    if (parsed.e * 1000 <= this.clock.now().getTime()) {
      throw new DomainError('gone', [{ detail: 'this link has expired' }]);
    }
    return { purpose: parsed.p, resourceId: parsed.r, expiresAt: parsed.e };
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.config.signingSecret).update(payload).digest('base64url');
  }
}
