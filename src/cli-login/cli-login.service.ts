import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHmac, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { inTransaction } from '../common/sql/transaction';
import { AppConfig } from '../config/app-config';
import { LoginService } from '../tokens/login.service';
import { TokensService } from '../tokens/tokens.service';
import { LoginCodeEntity } from './entities/login-code.entity';
import { LoginCodesRepository } from './login-codes.repository';
import { CLI_CLIENT_ID, CLI_TOKEN_DESCRIPTION, CODE_TTL_SECONDS, FORM_TTL_SECONDS } from './login-v1';
import { OAuthError } from './oauth-error';
import { AuthorizeRequest, callbackUrl, codeDigest, verifierMatches } from './oauth-rules';
import { checkFormToken, FormCheck, formToken } from './sign-in-form';

/** The token endpoint's form, as posted. */
export type TokenForm = Record<string, unknown>;

export interface TokenAnswer {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

const UNUSABLE_CODE = 'The authorization code is not valid: unknown, expired or already used.';

/**
 * `terraform login`: the sign-in that issues a one-time code, and the exchange of that code for a
 * user token. Passwords are checked by LoginService under the login throttle; tokens are ordinary
 * user tokens (TokensService), listed and revoked with the user's others.
 */
@Injectable()
export class CliLoginService {
  /** The key that signs sign-in forms: derived from the signing secret, for this purpose only. */
  private readonly formKey: string;

  constructor(
    private readonly codes: LoginCodesRepository,
    private readonly login: LoginService,
    private readonly tokens: TokensService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
    this.formKey = createHmac('sha256', config.signingSecret).update('cli-login-form').digest('base64url');
  }

  formTokenFor(nonce: string, request: AuthorizeRequest): string {
    return formToken(
      this.formKey,
      nonce,
      request,
      new Date(this.clock.now().getTime() + FORM_TTL_SECONDS * 1000),
    );
  }

  checkForm(nonce: string | undefined, token: unknown, request: AuthorizeRequest): FormCheck {
    return checkFormToken(this.formKey, nonce, token, request, this.clock.now());
  }

  /**
   * Checks the password (a 401 or 429 domain error when it may not pass) and issues a code bound to
   * the user, the client, the redirect URI and the challenge; answers where to send the browser.
   */
  async signIn(
    address: string,
    request: AuthorizeRequest,
    username: string,
    password: string,
  ): Promise<string> {
    const user = await this.login.authenticate(address, username, password);
    const code = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const row = Object.assign(new LoginCodeEntity(), {
      digest: codeDigest(code),
      userId: user.id,
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000),
      createdAt: now,
    });
    await inTransaction(this.ds, async (m) => {
      await this.codes.deleteExpired(m, now);
      await this.codes.insert(m, row);
    });
    return callbackUrl(request, code);
  }

  /**
   * The authorization-code grant with PKCE. The code is taken out before anything else is compared,
   * so whatever the outcome it cannot be tried again; the token is issued in the same transaction.
   */
  async exchange(form: TokenForm): Promise<TokenAnswer> {
    const field = (name: string): string => {
      const value = form[name];
      if (typeof value !== 'string' || value === '')
        throw new OAuthError('invalid_request', `${name} is required.`);
      return value;
    };
    const grantType = field('grant_type');
    if (grantType !== 'authorization_code') {
      throw new OAuthError('unsupported_grant_type', 'Only the authorization_code grant is supported.');
    }
    const code = field('code');
    const redirectUri = field('redirect_uri');
    const clientId = field('client_id');
    const verifier = field('code_verifier');
    if (clientId !== CLI_CLIENT_ID) throw new OAuthError('invalid_client', `Unknown client ${clientId}.`);
    const now = this.clock.now();
    const ttlSeconds = this.config.cliLoginTokenTtlDays * 86400;
    const outcome = await inTransaction(this.ds, async (m) => {
      const row = await this.codes.take(m, codeDigest(code));
      if (!row || row.expiresAt.getTime() <= now.getTime() || row.clientId !== clientId) {
        return { problem: UNUSABLE_CODE };
      }
      if (row.redirectUri !== redirectUri) {
        return { problem: 'redirect_uri does not match the one of the authorization request.' };
      }
      if (!verifierMatches(verifier, row.codeChallenge)) {
        return { problem: 'code_verifier does not match the code challenge.' };
      }
      const expiredAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
      return {
        issued: await this.tokens.issue(
          m,
          'user',
          { userId: row.userId },
          { description: CLI_TOKEN_DESCRIPTION, 'expired-at': expiredAt },
        ),
      };
    });
    if (!outcome.issued) throw new OAuthError('invalid_grant', outcome.problem);
    return { access_token: outcome.issued.secret, token_type: 'bearer', expires_in: ttlSeconds };
  }
}
