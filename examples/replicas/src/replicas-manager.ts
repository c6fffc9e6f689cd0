//! The replicas controller as a program runs it: a Manager with the controller and a webhook
//! server that converts ConfigMapSets between v1alpha1 and v1 for the apiserver.

import { Manager, type ManagerOptions } from '@ctrlkit/runtime/manager';
import { WebhookServer, type WebhookServerOptions } from '@ctrlkit/runtime/webhook';
import { configMapSetConversion } from './configmapset-crd.js';
import { type ReplicasControllerOptions, startReplicasController } from './replicas-controller.js';

/** Options of {@link newReplicasManager}. */
export interface ReplicasManagerOptions {
  /** The manager's options (kubeConfig required); its `webhookServer` is the one made here. */
  manager: Omit<ManagerOptions, 'webhookServer'>;
  /** Where the webhook server listens and finds `tls.crt`/`tls.key`. Default: `WebhookServer`'s defaults (port 9443, /tmp/k8s-webhook-server/serving-certs). */
  webhookServer?: WebhookServerOptions;
  /** The controller's options; its client is the manager's. Default: all namespaces, 4 workers, expectations on. */
  controller?: Omit<ReplicasControllerOptions, 'client' | 'kubeConfig'>;
}

/**
 * A Manager that runs the replicas controller (leader-only, on the manager's client) and,
 * on every replica, a {@link WebhookServer} serving the ConfigMapSet conversion webhook at
 * `/convert`, which the CRD's `spec.conversion` names. Start it with `manager.start(signal)`.
 *
 * Errors: `InvalidArgumentError` naming the option, from the Manager or the WebhookServer.
 */
export function newReplicasManager(options: ReplicasManagerOptions): Manager {
  const webhookServer = new WebhookServer({
    ...(options.manager.logger !== undefined && { logger: options.manager.logger }),
    ...options.webhookServer,
  }).register(configMapSetConversion);
  const manager = new Manager({ ...options.manager, webhookServer });
  const logger = options.controller?.logger ?? options.manager.logger;
  manager.add({
    name: 'configmapset',
    start: (signal) =>
      startReplicasController(
        { ...options.controller, client: manager.client, ...(logger !== undefined && { logger }) },
        signal,
      ).done,
  });
  return manager;
}
