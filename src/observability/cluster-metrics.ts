import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, Registry } from 'prom-client';

const REQUEST = 'plinth:metrics-request';
const RESULT = 'plinth:metrics-result';
/** prom-client's primary gives up on silent workers after 5 s; wait a little longer for its answer. */
const WAIT_MS = 6000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: string;
}

interface MetricsResult {
  type: typeof RESULT;
  id: string;
  body?: string;
}

function isRequest(msg: unknown): msg is MetricsRequest {
  return typeof msg === 'object' && msg !== null && (msg as MetricsRequest).type === REQUEST;
}

function isResult(msg: unknown): msg is MetricsResult {
  return typeof msg === 'object' && msg !== null && (msg as MetricsResult).type === RESULT;
}

/**
 * In the primary: whichever worker a scrape lands on asks here, and prom-client gathers every
 * worker's registry (counters and histograms summed), so one scrape sees the whole machine.
 */
export function aggregateWorkerMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, msg: unknown) => {
    if (!isRequest(msg)) return;
    aggregator.clusterMetrics().then(
      (body) => worker.isConnected() && worker.send({ type: RESULT, id: msg.id, body }),
      () => worker.isConnected() && worker.send({ type: RESULT, id: msg.id }),
    );
  });
}

/** In a worker: answer the primary's collection requests with this registry. */
export function shareWorkerRegistry(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry();
}

/** In a worker: the whole cluster's metrics text, or undefined when the primary cannot tell in time. */
export function askPrimaryForMetrics(): Promise<string | undefined> {
  return new Promise((resolve) => {
    const id = randomUUID();
    const finish = (body: string | undefined) => {
      clearTimeout(timer);
      process.off('message', onMessage);
      resolve(body);
    };
    const onMessage = (msg: unknown) => {
      if (isResult(msg) && msg.id === id) finish(msg.body);
    };
    const timer = setTimeout(() => finish(undefined), WAIT_MS);
    process.on('message', onMessage);
    process.send?.({ type: REQUEST, id } satisfies MetricsRequest);
  });
}
