import { applyDecorators, Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { errorDocument, jsonApiContent } from '../common/jsonapi/openapi';
import { DomainError } from '../common/errors/domain-error';
import { CliLoginService } from './cli-login.service';
import { AUTHORIZE_ROUTE, FORM_TTL_SECONDS } from './login-v1';
import { AuthorizeRequest, checkAuthorizeRequest } from './oauth-rules';
import { FORM_COOKIE, newNonce, usableNonce } from './sign-in-form';
import { contentSecurityPolicy, errorPage, signInPage } from './sign-in-page';
import { Endpoint } from '../http/endpoint';

const HTML = { 'text/html': { schema: { type: 'string' } } };
/** What the pipeline answers before the route (an unreadable body, a refused query parameter). */
const UNREADABLE = jsonApiContent(errorDocument(400).schema, errorDocument(400).example);

/** The authorization request's parameters, as the CLI sends them. */
const QUERY: [string, string, Record<string, unknown>][] = [
  ['response_type', 'Always `code`', { type: 'string', enum: ['code'] }],
  ['client_id', 'Always `terraform-cli`', { type: 'string', enum: ['terraform-cli'] }],
  [
    'redirect_uri',
    '`http://localhost:PORT/login`, PORT from 10000 to 10010',
    { type: 'string', example: 'http://localhost:10000/login' },
  ],
  ['state', 'Echoed in the redirect (at most 512 characters)', { type: 'string', maxLength: 512 }],
  [
    'code_challenge',
    'base64url SHA-256 of the code verifier',
    { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
  ],
  ['code_challenge_method', 'Always `S256`', { type: 'string', enum: ['S256'] }],
];

function ApiAuthorizeQuery(): MethodDecorator {
  return applyDecorators(
    ...QUERY.map(([name, description, schema]) => ApiQuery({ name, description, required: true, schema })),
  );
}

function html(description: string) {
  return { description, content: HTML };
}

/** The value of one cookie of the request, if sent once. */
function cookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const values = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
  return values.length === 1 ? values[0] : undefined;
}

/**
 * The sign-in page `terraform login` opens in the browser (`login.v1`'s `authz`). HTML in, HTML out:
 * errors are pages, and nothing goes to the redirect URI until a user has signed in.
 */
@ApiTags('cli-login')
@Controller(AUTHORIZE_ROUTE)
export class SignInController {
  constructor(private readonly cliLogin: CliLoginService) {}

  @Get()
  @Endpoint({ auth: 'public' })
  @ApiOperation({
    summary: 'The sign-in page of `terraform login` (HTML; authorization-code request with PKCE S256)',
    description:
      'Query: `response_type=code`, `client_id=terraform-cli`, `redirect_uri=http://localhost:PORT/login` ' +
      '(PORT 10000–10010), `state`, `code_challenge` (base64url SHA-256 of the verifier), ' +
      '`code_challenge_method=S256`. Answers the form, or a page saying what is wrong with the request.',
  })
  @ApiAuthorizeQuery()
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, ...html('The sign-in form') })
  @ApiResponse({
    status: 400,
    description:
      'The request is not one the CLI makes; nothing is sent to the redirect URI. `include`, `sort` or ' +
      '`fields[…]` are refused before the route, as a JSON:API error',
    content: { ...HTML, ...UNREADABLE },
  })
  page(@Req() req: Request, @Res() res: Response): void {
    const checked = checkAuthorizeRequest(req.query);
    if (!checked.ok) return this.send(res, 400, errorPage(checked.error));
    this.form(req, res, 200, checked.value);
  }

  @Post()
  @Endpoint({ auth: 'public', effect: 'leaves-access-alone' })
  @ApiOperation({
    summary: 'Sign in on the page: redirects to the CLI with a one-time code, or shows the form again',
    description:
      'Form-encoded: the page’s hidden fields (the authorization request and `form_token`), `username` and ' +
      '`password`, with the cookie the page set. A right password redirects (302) to ' +
      '`redirect_uri?code=…&state=…`; the code works once, for 5 minutes. Wrong passwords and lock-outs ' +
      'follow the login rules of `POST /api/v2/login`.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiProduces('text/html')
  @ApiResponse({ status: 302, description: 'Signed in: to the redirect URI with `code` and `state`' })
  @ApiResponse({
    status: 400,
    description:
      'The request is not one the CLI makes, or a field is missing; a body that cannot be read is refused ' +
      'before the route, as a JSON:API error',
    content: { ...HTML, ...UNREADABLE },
  })
  @ApiResponse({ status: 401, ...html('Wrong username or password: the form again') })
  @ApiResponse({
    status: 403,
    ...html('The form was not sent from this page, or has expired: the form again'),
  })
  @ApiResponse({
    status: 429,
    description:
      'Too many sign-in attempts: the form again; Retry-After says when. Past the rate limit of every route, ' +
      'before the route: a JSON:API error',
    content: { ...HTML, ...jsonApiContent(errorDocument(429).schema, errorDocument(429).example) },
  })
  async submit(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const checked = checkAuthorizeRequest(form);
    if (!checked.ok) return this.send(res, 400, errorPage(checked.error));
    const request = checked.value;
    const username = typeof form.username === 'string' ? form.username : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const check = this.cliLogin.checkForm(usableNonce(cookie(req, FORM_COOKIE)), form.form_token, request);
    if (check !== 'ok') {
      const why =
        check === 'expired'
          ? 'The sign-in form has expired. Sign in again.'
          : 'The sign-in form was not sent from this page. Sign in again.';
      return this.form(req, res, 403, request, username, why);
    }
    if (!username || !password) {
      return this.form(req, res, 400, request, username, 'Enter your username and password.');
    }
    try {
      const to = await this.cliLogin.signIn(
        req.ip ?? req.socket.remoteAddress ?? 'unknown',
        request,
        username,
        password,
      );
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Security-Policy', contentSecurityPolicy(request.redirectUri));
      res.redirect(302, to);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.kind === 'unauthorized') {
        return this.form(req, res, 401, request, username, 'Invalid username or password.');
      }
      if (err.kind === 'rate-limited' && err.retryAfterSeconds !== undefined) {
        res.setHeader('Retry-After', String(err.retryAfterSeconds));
        return this.form(req, res, 429, request, username, `${err.message}.`);
      }
      throw err;
    }
  }

  /** The form, with the cookie's nonce (a new one when the browser has none) and a token signed for it. */
  private form(
    req: Request,
    res: Response,
    status: number,
    request: AuthorizeRequest,
    username?: string,
    error?: string,
  ): void {
    const nonce = usableNonce(cookie(req, FORM_COOKIE)) ?? newNonce();
    const secure = req.secure ? '; Secure' : '';
    res.setHeader(
      'Set-Cookie',
      `${FORM_COOKIE}=${nonce}; Path=/${AUTHORIZE_ROUTE}; Max-Age=${FORM_TTL_SECONDS}; HttpOnly; SameSite=Strict${secure}`,
    );
    const formToken = this.cliLogin.formTokenFor(nonce, request);
    this.send(res, status, signInPage({ request, formToken, username, error }), request.redirectUri);
  }

  private send(res: Response, status: number, body: string, redirectUri?: string): void {
    res.status(status);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', contentSecurityPolicy(redirectUri));
    res.send(body);
  }
}
