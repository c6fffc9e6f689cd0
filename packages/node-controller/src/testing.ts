/**
 * `@ctrlkit/node-controller/testing`: {@link FakeKube}, an in-memory clientset (pods, nodes,
 * leases, ConfigMaps, Secrets, Services) with client-go-style reactors ({@link FakeReactor})
 * and a record of every call ({@link FakeAction}), for unit tests of providers and
 * controllers without an API server; {@link apiError} makes the API error a reactor throws.
 *
 * A first test:
 * ```ts
 * import { apiError, FakeKube } from '@ctrlkit/node-controller/testing';
 *
 * const kube = new FakeKube();
 * kube.seed('pods', { metadata: { namespace: 'default', name: 'web' }, spec: { nodeName: 'vk' } });
 * kube.prependReactor((action) => {
 *   if (action.verb === 'patch' && action.resource === 'nodes') throw apiError(409, 'conflict');
 * });
 * // give kube's clients and listWatch('pods') to the controllers; assert on kube.actions
 * ```
 *
 * @packageDocumentation
 */

export {
  apiError,
  type FakeAction,
  FakeKube,
  type FakeReactor,
  type FakeResource,
  type FakeVerb,
} from './testing/fake-kube.js';
