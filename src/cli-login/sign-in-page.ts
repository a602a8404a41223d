import { createHash } from 'node:crypto';
import { AuthorizeRequest } from './oauth-rules';

/**
 * The HTML of the CLI's sign-in page: one document, no script, no external asset, its one style
 * sheet inline and allowed by its hash. Readable and usable without JavaScript or CSS.
 */

const STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1b1f24;line-height:1.5}',
  'h1{font-size:1.4rem}',
  'label{display:block;margin-top:1rem;font-weight:600}',
  'input{display:block;width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;margin-top:.25rem}',
  'button{margin-top:1.5rem;padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}',
  '.error{border-left:4px solid #b42318;background:#fef3f2;padding:.5rem .75rem}',
  'code{overflow-wrap:anywhere}',
].join('');

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * Nothing loads but the inline style; the form may post only here, and the redirect after a good
 * sign-in only to the CLI's loopback address (browsers check redirects of a form submission against
 * `form-action` too). No framing.
 */
export function contentSecurityPolicy(redirectUri?: string): string {
  const formAction = redirectUri ? `'self' ${new URL(redirectUri).origin}` : "'self'";
  return [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function document(title: string, body: string): string {
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    '<meta name="referrer" content="no-referrer">\n' +
    `<title>${escapeHtml(title)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n<main>\n${body}\n</main>\n</body>\n</html>\n`
  );
}

export interface SignInForm {
  request: AuthorizeRequest;
  formToken: string;
  username?: string;
  error?: string;
}

/** The form: the authorization request in hidden fields, the signed form token, the credentials. */
export function signInPage(form: SignInForm): string {
  const r = form.request;
  const hidden: [string, string][] = [
    ['response_type', 'code'],
    ['client_id', r.clientId],
    ['redirect_uri', r.redirectUri],
    ['state', r.state],
    ['code_challenge', r.codeChallenge],
    ['code_challenge_method', 'S256'],
    ['form_token', form.formToken],
  ];
  const fields = hidden
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('\n');
  const error = form.error ? `<p class="error" role="alert">${escapeHtml(form.error)}</p>\n` : '';
  return document(
    'Sign in to Plinth: terraform login',
    '<h1>Sign in to Plinth</h1>\n' +
      '<p>Terraform on your computer asks for an API token to act as you. Signing in gives it one, ' +
      `sent to <code>${escapeHtml(r.redirectUri)}</code>. It is listed with your other tokens as ` +
      '"terraform login" and can be revoked there.</p>\n' +
      error +
      '<form method="post" action="authorize">\n' +
      `${fields}\n` +
      '<label for="username">Username</label>\n' +
      `<input id="username" name="username" type="text" autocomplete="username" required maxlength="64" value="${escapeHtml(form.username ?? '')}">\n` +
      '<label for="password">Password</label>\n' +
      '<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="128">\n' +
      '<button type="submit">Sign in</button>\n' +
      '</form>',
  );
}

/** A request the page cannot serve: nothing is sent to the redirect URI. */
export function errorPage(message: string): string {
  return document(
    'Plinth: terraform login',
    '<h1>This sign-in link cannot be used</h1>\n' +
      `<p class="error" role="alert">${escapeHtml(message)}</p>\n` +
      '<p>Run <code>terraform login</code> again to get a new one.</p>',
  );
}
