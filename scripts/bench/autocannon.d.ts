/** The parts of autocannon 8's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface RequestContext {
      [key: string]: unknown;
    }

    interface RawRequest {
      method?: string;
      path?: string;
      body?: string | Buffer;
      headers?: Record<string, string>;
    }

    interface Request extends RawRequest {
      setupRequest?: (req: RawRequest, context: RequestContext) => RawRequest | undefined;
      onResponse?: (status: number, body: string, context: RequestContext) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      requests?: Request[];
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
    }

    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      duration: number;
      '2xx': number;
    }
  }

  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;

  export = autocannon;
}
