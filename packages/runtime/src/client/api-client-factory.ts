//! client-node API clients that share a client-side rate limit, send the app's user agent and count requests.

import { type Clock, InvalidArgumentError, realClock, sleep } from '@ctrlkit/core';
import { newBucketRateLimiter } from '@ctrlkit/workqueue';
import {
  type Configuration,
  createConfiguration,
  type HttpLibrary,
  type KubeConfig,
  Observable,
  type ObservableMiddleware,
  type RequestContext,
  ResponseContext,
  ServerConfiguration,
} from '@kubernetes/client-node';
import { RestClient, type RestMethod } from '../informers/rest-client.js';
import type { RestClientMetrics } from '../metrics/rest-client-metrics.js';

/**
 * Requests per second every client of one factory may send together, after the burst:
 * 20, controller-runtime's default. client-go's own default (5, burst 10) throttles a
 * controller that writes status for a few hundred objects for minutes at startup.
 */
export const DEFAULT_QPS = 20;
/** Requests the clients of one factory may send at once before `qps` applies: 30, as controller-runtime. */
export const DEFAULT_BURST = 30;
/** The user agent when none is given: `ctrlkit`. Name your app instead (`my-app/1.2.3`). */
export const DEFAULT_USER_AGENT = 'ctrlkit';

/** Options of {@link ApiClientFactory}. */
export interface ApiClientFactoryOptions {
  /** Requests per second across every client of the factory; `Infinity` for no limit. Default {@link DEFAULT_QPS}. */
  qps?: number;
  /** Requests let through at once from a full bucket; an integer >= 1. Default {@link DEFAULT_BURST}. */
  burst?: number;
  /** The `User-Agent` header of every request. Default {@link DEFAULT_USER_AGENT}. */
  userAgent?: string;
  /** Where each request is counted. Default: nowhere. */
  metrics?: RestClientMetrics;
  /** The clock of the rate limiter. Default: the real clock. */
  clock?: Clock;
}

/**
 * Makes client-node API clients (`CoreV1Api`, `CustomObjectsApi`, …) for one cluster that
 * share one token bucket (client-go's `QPS`/`Burst` on a `rest.Config`): a request waits for
 * a token before it is sent, and a request aborted while waiting is not sent. Every request
 * carries `userAgent` and is reported to `metrics` with its status code and duration.
 *
 * The clients share one pool of kept-alive connections ({@link RestClient.request}), where
 * `kubeConfig.makeApiClient` opens a new TLS connection for every request (client-node
 * 2.0.1 makes a new undici dispatcher per request): a few milliseconds of CPU saved per
 * request on each side.
 */
export class ApiClientFactory {
  readonly kubeConfig: KubeConfig;
  readonly #options: Required<Omit<ApiClientFactoryOptions, 'metrics'>> & {
    metrics: RestClientMetrics | undefined;
  };
  readonly #limiter: { when(item: string): number };
  readonly #http: HttpLibrary;

  constructor(kubeConfig: KubeConfig, options: ApiClientFactoryOptions = {}) {
    if (kubeConfig === null || typeof kubeConfig?.getCurrentCluster !== 'function') {
      throw new InvalidArgumentError(
        'kubeConfig',
        'expected a KubeConfig from @kubernetes/client-node',
      );
    }
    const qps = options.qps ?? DEFAULT_QPS;
    if (typeof qps !== 'number' || Number.isNaN(qps) || qps <= 0) {
      throw new InvalidArgumentError(
        'qps',
        `expected requests per second > 0 (Infinity for no limit), got ${String(qps)}`,
      );
    }
    const burst = options.burst ?? DEFAULT_BURST;
    if (!Number.isInteger(burst) || burst < 1) {
      throw new InvalidArgumentError('burst', `expected an integer >= 1, got ${String(burst)}`);
    }
    const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    if (typeof userAgent !== 'string' || userAgent.trim() === '' || /[\r\n]/.test(userAgent)) {
      throw new InvalidArgumentError('userAgent', 'expected a non-empty single-line string');
    }
    const clock = options.clock ?? realClock;
    this.kubeConfig = kubeConfig;
    this.#options = { qps, burst, userAgent, clock, metrics: options.metrics };
    this.#limiter = newBucketRateLimiter<string>({ qps, burst, clock });
    this.#http = this.#instrument(restHttpLibrary(new RestClient(kubeConfig)));
  }

  /** A client of `ApiClass` on this factory's cluster, limit and metrics. */
  makeApiClient<T>(ApiClass: new (configuration: Configuration) => T): T {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (cluster === null) throw new InvalidArgumentError('kubeConfig', 'has no current cluster');
    // No authMethods: the RestClient applies the kubeconfig's credentials to each request.
    const configuration = createConfiguration({
      baseServer: new ServerConfiguration(cluster.server, {}),
      middleware: [userAgentMiddleware(this.#options.userAgent)],
      httpApi: this.#http,
    });
    return new ApiClass(configuration);
  }

  /** Wraps the HTTP library: wait for a token, send, report code and duration. */
  #instrument(inner: HttpLibrary): HttpLibrary {
    const { clock, metrics } = this.#options;
    return {
      send: (request: RequestContext): Observable<ResponseContext> =>
        new Observable(
          (async () => {
            const signal = request.getSignal() ?? new AbortController().signal;
            const wait = this.#limiter.when('');
            if (wait > 0) await sleep(clock, wait, signal);
            signal.throwIfAborted();
            const method = request.getHttpMethod().toString();
            const host = new URL(request.getUrl()).host;
            const started = clock.now();
            try {
              const response = await inner.send(request).toPromise();
              metrics?.observe({
                method,
                host,
                code: String(response.httpStatusCode),
                seconds: (clock.now() - started) / 1000,
              });
              return response;
            } catch (error) {
              metrics?.observe({
                method,
                host,
                code: '<error>',
                seconds: (clock.now() - started) / 1000,
              });
              throw error;
            }
          })(),
        ),
    };
  }
}

/** client-node's HTTP library on a RestClient: its credentials, TLS and kept-alive connections. */
function restHttpLibrary(rest: RestClient): HttpLibrary {
  const server = rest.kubeConfig.getCurrentCluster()?.server.replace(/\/+$/, '') ?? '';
  const send = async (request: RequestContext): Promise<ResponseContext> => {
    const url = request.getUrl();
    if (!url.startsWith(server))
      throw new InvalidArgumentError('url', `${url} is not on the cluster's server ${server}`);
    const body = request.getBody();
    if (body !== undefined && typeof body !== 'string' && !(body instanceof URLSearchParams))
      throw new InvalidArgumentError('body', 'a form-data body is not supported');
    const answer = await rest.request(
      request.getHttpMethod().toString() as RestMethod,
      url.slice(server.length),
      { headers: request.getHeaders(), body: body?.toString(), signal: request.getSignal() },
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return new ResponseContext(answer.statusCode, headers, {
      text: async () => answer.body.toString('utf8'),
      binary: async () => answer.body,
      stream: () => new Blob([answer.body]).stream(),
    });
  };
  return { send: (request) => new Observable(send(request)) };
}

function userAgentMiddleware(userAgent: string): ObservableMiddleware {
  return {
    pre: (context: RequestContext) => {
      context.setHeaderParam('User-Agent', userAgent);
      return new Observable(Promise.resolve(context));
    },
    post: (response: ResponseContext) => new Observable(Promise.resolve(response)),
  };
}
