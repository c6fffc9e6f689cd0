//! One OVA catalog per Provider, as Forklift: each ova Provider's `spec.url` (an NFS share) names the catalog its inventory reads.

import { posix } from 'node:path';
import { type Clock, InvalidArgumentError } from '@ctrlkit/core';
import type { Provider } from '../api/provider.js';
import { DEFAULT_OVA_CATALOG_PATH, OvaInventory } from './inventory.js';
import { OvaSource } from './ova-source.js';

/** An NFS share as an OVA Provider's `spec.url` names it: `server:/path`. */
export interface NfsShare {
  server: string;
  path: string;
}

/**
 * The NFS share of an OVA Provider's `spec.url` (`server:/path`, e.g.
 * `nfs.example.com:/exports/ova`), or undefined when the URL is not one.
 */
export function parseNfsShare(url: string | undefined): NfsShare | undefined {
  const text = url ?? '';
  const colon = text.indexOf(':');
  const server = text.slice(0, colon);
  const path = text.slice(colon + 1);
  if (colon <= 0 || !path.startsWith('/') || path.startsWith('//') || server.includes('/')) {
    return undefined; // also a URL such as https://host/…
  }
  return { server, path };
}

/** Options of {@link OvaProviderCatalogs}. */
export interface OvaProviderCatalogsOptions {
  /**
   * Where the Providers' shares are mounted, one folder per share:
   * `<root>/<server>/<path>` (`/ova/nfs.example.com/exports/ova`). Default
   * {@link DEFAULT_OVA_CATALOG_PATH}.
   */
  root?: string;
  clock?: Clock;
}

/** One catalog: its folder, the inventory that reads it and the source adapter over it. */
export interface OvaProviderCatalog {
  /** The share the Provider's `spec.url` names. */
  share: NfsShare;
  /** Where it is mounted: `<root>/<server>/<path>`. */
  catalogPath: string;
  inventory: OvaInventory;
  source: OvaSource;
}

/**
 * The catalogs of the OVA Providers: each Provider's inventory reads the share its
 * `spec.url` names, mounted under `root` at `<server>/<path>`, so two Providers with
 * different shares see different VMs (and the conversion pod, which mounts the Provider's
 * share, finds the files the inventory listed). Providers naming the same share share one
 * inventory. Forklift runs an inventory server per Provider with the share mounted; here
 * the controller reads the mounts itself.
 */
export class OvaProviderCatalogs {
  /** The folder the shares are mounted under. */
  readonly root: string;
  readonly #clock: Clock | undefined;
  readonly #byPath = new Map<string, OvaProviderCatalog>();

  constructor(options: OvaProviderCatalogsOptions = {}) {
    const root = options.root ?? DEFAULT_OVA_CATALOG_PATH;
    if (!posix.isAbsolute(root)) {
      throw new InvalidArgumentError(
        'root',
        `must be an absolute path, got ${JSON.stringify(root)}`,
      );
    }
    this.root = root;
    this.#clock = options.clock;
  }

  /**
   * The catalog of `provider` (made on first use, then kept), or undefined when its
   * `spec.url` is not an NFS share `server:/path` (or its path climbs out with `..`).
   */
  forProvider(provider: Provider): OvaProviderCatalog | undefined {
    const share = parseNfsShare(provider.spec.url);
    if (share === undefined) return undefined;
    const catalogPath = posix.join(this.root, share.server, share.path);
    // `..` in the URL must not lead out of the Provider's folder under the root.
    if (!catalogPath.startsWith(`${posix.join(this.root, share.server)}/`)) return undefined;
    let catalog = this.#byPath.get(catalogPath);
    if (catalog === undefined) {
      const inventory = new OvaInventory({
        catalogPath,
        ...(this.#clock !== undefined && { clock: this.#clock }),
      });
      catalog = { share, catalogPath, inventory, source: new OvaSource({ inventory }) };
      this.#byPath.set(catalogPath, catalog);
    }
    return catalog;
  }
}
