/** An OAuth 2.0 token endpoint error (RFC 6749 §5.2), answered as `{error, error_description}`. */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type',
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  /** Always 400: the CLI is a public client, so no client authentication failed (RFC 6749 §5.2). */
  readonly status = 400;
}
