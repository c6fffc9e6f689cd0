/**
 * `@ctrlkit/envtest/binaries`: where the control plane's binaries come from, for a program that
 * manages them itself (a CI cache step, a `setup` command); `startControlPlane` calls
 * {@link resolveBinaries} on its own.
 *
 * - {@link resolveBinaries} finds etcd, kube-apiserver and the requested components, in this
 *   order: `KUBEBUILDER_ASSETS`, setup-envtest's store, the cache
 *   ({@link defaultCacheDirectory}, {@link versionedCacheDirectory}), a download of the envtest
 *   release archive ({@link DEFAULT_RELEASE_INDEX_URL}) and of the components' release binaries
 *   ({@link releaseBinaryUrl}, {@link DEFAULT_KUBERNETES_RELEASE_URL}), then a one-time build
 *   from the Go modules ({@link buildBinaries}, {@link buildComponentBinaries}); it gives
 *   {@link ControlPlaneBinaries}.
 * - What each step leaves in the cache: {@link DownloadRecord}, {@link ComponentDownloadRecord},
 *   {@link BuildRecord}, {@link ComponentBuildRecord}.
 *
 * A first program:
 * ```ts
 * import { resolveBinaries } from '@ctrlkit/envtest/binaries';
 *
 * const binaries = await resolveBinaries({ components: ['kube-scheduler'] });
 * console.log(binaries.kubeApiServer, binaries.etcd);
 * ```
 *
 * @packageDocumentation
 */

export {
  type BuildRecord,
  buildBinaries,
  buildComponentBinaries,
  type ComponentBuildRecord,
  GO_MODULES_DIRECTORY,
  versionedCacheDirectory,
} from './build.js';
export type { DownloadRecord } from './download.js';
export { type ComponentDownloadRecord, releaseBinaryUrl } from './download-component.js';
export {
  DEFAULT_BUILD_JOBS,
  DEFAULT_KUBERNETES_RELEASE_URL,
  DEFAULT_RELEASE_INDEX_URL,
  defaultCacheDirectory,
} from './options.js';
export { type ControlPlaneBinaries, resolveBinaries } from './resolve-binaries.js';
