//! client-node's whole index, loaded on first use only: its generated API classes and serializer weigh ~25 MB of heap.

import { createRequire } from 'node:module';
import type * as ClientNode from '@kubernetes/client-node';

let loaded: typeof ClientNode | undefined;

/**
 * `@kubernetes/client-node`, required synchronously (Node's `require` of an ES module) the
 * first time a helper needs its serializer (the CRD helpers: `loadYaml`, `dumpYaml`). The
 * rest of the runtime imports only its types, so a controller that never renders a CRD
 * never loads it.
 */
export function clientNodeIndex(): typeof ClientNode {
  loaded ??= createRequire(import.meta.url)('@kubernetes/client-node') as typeof ClientNode;
  return loaded;
}
