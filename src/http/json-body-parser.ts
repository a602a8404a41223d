import express, { NextFunction, Request, Response } from 'express';
import { unreadableBody } from '../common/errors/body-errors';
import { bodyShapeProblem } from '../common/jsonapi/body-shape';
import { JSON_BODY_TYPES } from '../common/jsonapi/media-type';

/** Parses a JSON body up to `limit`, with the parser's errors and unsafe shapes as domain errors. */
export function jsonBodyParser(limit: string | number): express.RequestHandler {
  const parse = express.json({ limit, type: JSON_BODY_TYPES, strict: true });
  return (req: Request, res: Response, next: NextFunction) =>
    parse(req, res, (err?: unknown) => {
      // Turned into a domain error here: the framework would otherwise quote the parser's message.
      if (err) return next(unreadableBody(err));
      next(bodyShapeProblem(req.body));
    });
}
