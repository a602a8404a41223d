import type { Request } from 'express';
import passport from 'passport';

type Verify = (req: Request, options: object, done: (err: unknown, user?: unknown) => void) => void;

/**
 * A passport strategy whose whole check is one asynchronous verify of the request (a credential
 * that is not a bearer token: an agent's identity, a signed link). With @nestjs/passport's
 * `PassportStrategy(RequestStrategy, name)` the subclass's `validate(req, options)` is that
 * verify: it returns what it authenticated or throws the answer (401, 404, 410 as DomainErrors).
 */
export class RequestStrategy extends passport.Strategy {
  constructor(private readonly verify: Verify) {
    super();
  }

  override authenticate(req: Request, options?: object): void {
    this.verify(req, options ?? {}, (err, user) => {
      if (err) this.error(err);
      else if (user) this.success(user);
      else this.fail();
    });
  }
}
