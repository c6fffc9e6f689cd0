// The one place that knows @ctrlkit/runtime's informer API. driver.mjs calls
// startCtrlkitInformer() and needs nothing else from the package.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Thrown when @ctrlkit/runtime/informers has no informer to benchmark yet; the column shows '-'. */
export class NotWiredError extends Error {}

/**
 * The variants run.mjs measures beside the defaults (`ctrlkit`): factory options,
 * `metadataOnly` for the informer, and `contentType` and `disableCompression` for its client
 * (the defaults: protobuf for built-in types and gzip, as client-go's).
 */
export const CTRLKIT_VARIANTS = {
  ctrlkit: {},
  'ctrlkit list': { initialListMode: 'list' },
  'ctrlkit stream': { initialListMode: 'stream' },
  'ctrlkit no gzip': { disableCompression: true },
  'ctrlkit metadata': { metadataOnly: true },
  'ctrlkit json': { contentType: 'application/json' },
};

/**
 * The column of a second build of @ctrlkit/runtime, measured with the defaults in the same
 * rounds when BASELINE_DIST names its `dist` folder (e.g. main's build copied into this
 * package, where its dependencies resolve): before and after a change, on one machine state.
 */
export const BASELINE = 'ctrlkit baseline';
/**
 * The baseline build's streaming list (`'ctrlkit stream'` on BASELINE_DIST), measured right
 * after `'ctrlkit stream'` when both are asked for.
 */
export const BASELINE_STREAM = 'ctrlkit baseline stream';

/** The variant (an entry of {@link CTRLKIT_VARIANTS}) a baseline column runs. */
export const BASELINE_VARIANTS = { [BASELINE]: 'ctrlkit', [BASELINE_STREAM]: 'ctrlkit stream' };

/**
 * The module URL of the baseline build's informers: BASELINE_DIST/informers.js (the
 * `./informers` subpath), or index.js for a build from before the subpaths.
 */
export function baselineModule() {
  const dist = process.env.BASELINE_DIST;
  if (!dist) throw new NotWiredError('BASELINE_DIST is not set');
  const informers = resolve(dist, 'informers.js');
  return pathToFileURL(existsSync(informers) ? informers : resolve(dist, 'index.js')).href;
}

/**
 * Starts ctrlkit's shared informer on the ConfigMaps (or pods) of `namespace` with its defaults (the
 * default transform, which drops managedFields), as a controller would, and registers
 * the two handlers. `variant` names an entry of {@link CTRLKIT_VARIANTS}.
 *
 * @param runtime the module `@ctrlkit/runtime/informers` (or a baseline build's index.js)
 * @param options `{ kubeConfig, namespace, onAdd(obj), onUpdate(oldObj, newObj), resource }`
 *   (`resource`: `'configmaps'`, the default, or `'pods'`)
 * @returns `{ synced: Promise<void>, size(): number, lastSyncResourceVersion(): string,
 *   stop(): Promise<void> | void }`:
 *   `synced` resolves once the informer has synced (its `hasSynced()` turned true, or
 *   `waitForCacheSync` resolved), `size()` is the number of objects in its store,
 *   `lastSyncResourceVersion()` the version it last synced to.
 */
export async function startCtrlkitInformer(
  runtime,
  { kubeConfig, namespace, onAdd, onUpdate, resource = 'configmaps', variant = 'ctrlkit' },
) {
  const { SharedInformerFactory } = runtime;
  if (typeof SharedInformerFactory !== 'function') {
    const names = Object.keys(runtime).sort().join(', ');
    throw new NotWiredError(
      `@ctrlkit/runtime exports no SharedInformerFactory (bench/ctrlkit-informer.mjs needs updating; its exports: ${names})`,
    );
  }
  // CTRLKIT_INFORMER_OPTIONS: extra factory options as JSON, to compare settings, e.g.
  // '{"initialListMode":"list"}' or '{"transform":null}'. Default: none (the defaults).
  const extra = JSON.parse(process.env.CTRLKIT_INFORMER_OPTIONS || '{}');
  const { metadataOnly, contentType, disableCompression, ...options } =
    CTRLKIT_VARIANTS[variant] ?? {};
  // A wire format or compression other than the default is the client's option: a client of its own.
  const clientOptions = {
    ...(contentType && { contentType }),
    ...(disableCompression && { disableCompression }),
  };
  const source =
    Object.keys(clientOptions).length > 0
      ? (await import('@ctrlkit/client')).createClient(kubeConfig, clientOptions)
      : kubeConfig;
  const factory = new SharedInformerFactory(source, { ...extra, ...options, namespace });
  const informer = factory.forResource(`v1/${resource}`, { metadataOnly });
  informer.addEventHandler({ onAdd, onUpdate });
  const controller = new AbortController();
  factory.start(controller.signal);
  return {
    synced: informer.whenSynced(controller.signal),
    size: () => informer.indexer.size,
    lastSyncResourceVersion: () => informer.lastSyncResourceVersion,
    stop: async () => {
      // A reason without a stack: Node keeps the first request of a kept-alive socket (and
      // with it its signal) reachable, and the stack of a default AbortError would hold this
      // function's closure, so the dropped informer would not be freed (driver.mjs measures that).
      controller.abort('stopped by the bench');
      await factory.shutdown();
    },
  };
}
