import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import cluster from 'node:cluster';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { requestContext } from '../common/request-context';
import { countStatements, poolStats, statementsSent } from '../persistence/mysql-pool';
import { askPrimaryForMetrics, shareWorkerRegistry } from './cluster-metrics';

export const METRICS_PATH = '/metrics';

/** Requests answered before routing (unknown path, body parse error, early 429) share one label. */
export const UNMATCHED_ROUTE = '(unmatched)';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Nest mounts module middleware applied to every route (`forRoutes('*')`) on this catch-all route. */
const MIDDLEWARE_CATCH_ALL = '/{*path}';

/** The route template Express matched (`/api/v2/organizations/:name`), never the raw path. */
export function routeLabel(req: Request): string {
  const cached = requestContext(req).cachedRoute;
  if (cached) return cached;
  const route = req.route as { path?: unknown } | undefined;
  if (typeof route?.path !== 'string' || route.path === MIDDLEWARE_CATCH_ALL) return UNMATCHED_ROUTE;
  return `${req.baseUrl}${route.path}`;
}

/**
 * Prometheus metrics of this process: HTTP requests by route template, method and status, DB pool
 * sizes and statements sent (MySQL), and the process's own metrics. In a cluster, a scrape answers for all workers.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;
  private readonly cacheHits: Counter<'route'>;

  constructor(@InjectDataSource() ds: DataSource) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route template, method and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request arrival to the last byte of the response',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    });
    this.cacheHits = new Counter({
      name: 'http_response_cache_hits_total',
      help: 'GET answers given from the response cache (no query, no rendering), by route template',
      labelNames: ['route'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'db_pool_connections',
      help: 'Pooled database connections by state: all (open), free (idle), queued (requests waiting)',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const stats = poolStats(ds);
        if (!stats) return;
        this.set({ state: 'all' }, stats.all);
        this.set({ state: 'free' }, stats.free);
        this.set({ state: 'queued' }, stats.queued);
      },
    });
    countStatements(ds);
    new Counter({
      name: 'db_statements_total',
      help: 'Statements sent to the database (MySQL), transaction control included',
      registers: [this.registry],
      collect() {
        const sent = statementsSent(ds);
        if (sent === undefined) return;
        this.reset();
        this.inc(sent);
      },
    });
    if (cluster.isWorker) shareWorkerRegistry(this.registry);
  }

  /** Times every request except scrapes of /metrics itself. */
  middleware(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      if (req.path === METRICS_PATH) return next();
      const stop = process.hrtime.bigint();
      res.once('finish', () => {
        const labels = { method: req.method, route: routeLabel(req), status: String(res.statusCode) };
        this.requests.inc(labels);
        if (requestContext(req).cachedRoute) this.cacheHits.inc({ route: labels.route });
        this.latency.observe(labels, Number(process.hrtime.bigint() - stop) / 1e9);
      });
      next();
    };
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  async render(): Promise<string> {
    if (cluster.isWorker) {
      const all = await askPrimaryForMetrics();
      if (all !== undefined) return all;
    }
    return this.registry.metrics();
  }
}
