/**
 * `@ctrlkit/workqueue/prometheus`: the queues' metrics on prom-client (an optional peer
 * dependency, which is why this is a subpath of its own).
 *
 * {@link PrometheusMetricsProvider} exports every named queue's metrics as client-go
 * registers them, `workqueue_<metric>{name}`, with client-go's buckets
 * ({@link workqueueDurationBuckets}, 1 µs to 1000 s).
 *
 * A first program:
 * ```ts
 * import { defaultControllerRateLimiter, newTypedRateLimitingQueue } from '@ctrlkit/workqueue';
 * import { PrometheusMetricsProvider } from '@ctrlkit/workqueue/prometheus';
 * import { Registry } from 'prom-client';
 *
 * const registry = new Registry();
 * const queue = newTypedRateLimitingQueue(defaultControllerRateLimiter<string>(), {
 *   name: 'pods',
 *   metricsProvider: new PrometheusMetricsProvider({ registry }), // or setProvider(…) for every queue
 * });
 * queue.add('default/nginx');
 * await registry.metrics(); // … workqueue_depth{name="pods"} 1 …
 * ```
 *
 * @packageDocumentation
 */

export {
  PrometheusMetricsProvider,
  type PrometheusMetricsProviderOptions,
  workqueueDurationBuckets,
} from './prometheus-metrics-provider.js';
