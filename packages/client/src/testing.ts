/**
 * `@ctrlkit/client/testing`: machinery for fault tests of code that talks to an apiserver.
 *
 * - {@link FreezingProxy}: a TCP proxy in front of an apiserver that can freeze its open
 *   connections (forward nothing, close nothing): a half-open connection, as a lost NAT
 *   entry or a vanished peer leaves.
 *
 * ```ts
 * import { FreezingProxy } from '@ctrlkit/client/testing';
 *
 * const proxy = new FreezingProxy(apiserverPort);
 * await proxy.listen(); // point a kubeconfig at https://127.0.0.1:${proxy.port}
 * proxy.freeze(); // every open connection now forwards nothing
 * ```
 *
 * @packageDocumentation
 */

export { FreezingProxy } from './testing/freezing-proxy.js';
