import type { NextFunction, Request, Response } from 'express';

/**
 * The API version every answer announces in `TFP-API-Version`. The real CLI's `cloud` block
 * refuses a host whose version is absent or below 2.5; config-driven import needs 2.6.
 */
export const API_VERSION = '2.6';

/**
 * The name in `TFP-AppName`. The real service's clients treat exactly "HCP Terraform" as the
 * cloud and anything else as a self-hosted enterprise install, whose admin APIs they then use.
 * `X-TFE-Version` is not sent: clients read it as a monthly release (`v202302-1`), which Plinth
 * has none of, and an unreadable value would fail their plans.
 */
export const APP_NAME = 'Plinth';

/**
 * Sets the two headers on every answer, before the response cache (so remembered answers carry
 * them too) and before anything that may refuse a request early. Fixed values: run it through
 * `fixedHeaders`.
 */
export function apiVersionHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('TFP-API-Version', API_VERSION);
  res.setHeader('TFP-AppName', APP_NAME);
  next();
}
