//! Serving certificate and key from files, reloaded when the files change (controller-runtime's certwatcher).

import { type FSWatcher, watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { Logger } from '@ctrlkit/core';
import { WebhookError } from './webhook-error.js';
import { messageOf } from './webhook-handler.js';

/** How often the files are read again even without a change event: 10 s, as controller-runtime. */
export const DEFAULT_CERT_POLL_INTERVAL_MS = 10_000;
/** How long after a change event the files are read (a Secret update renames several files): 100 ms. */
const SETTLE_MS = 100;

/** A certificate and key pair, PEM. */
export interface KeyPair {
  readonly cert: string;
  readonly key: string;
}

/**
 * Watches `certFile` and `keyFile` (and their folders: a mounted Secret swaps a symlink),
 * and polls them every `pollIntervalMs`. When their content changes and the new pair
 * loads, `onChange` gets it; a pair that does not load (half written, key not matching) is
 * logged and the current one kept.
 */
export class CertWatcher {
  readonly #certFile: string;
  readonly #keyFile: string;
  readonly #logger: Logger;
  readonly #onChange: (pair: KeyPair) => void;
  readonly #pollIntervalMs: number;
  #current: KeyPair | undefined;
  #watchers: FSWatcher[] = [];
  #timer: NodeJS.Timeout | undefined;
  #poll: NodeJS.Timeout | undefined;
  #reading: Promise<void> = Promise.resolve();

  constructor(options: {
    certFile: string;
    keyFile: string;
    logger: Logger;
    onChange: (pair: KeyPair) => void;
    pollIntervalMs?: number;
  }) {
    this.#certFile = options.certFile;
    this.#keyFile = options.keyFile;
    this.#logger = options.logger;
    this.#onChange = options.onChange;
    this.#pollIntervalMs = options.pollIntervalMs ?? DEFAULT_CERT_POLL_INTERVAL_MS;
  }

  /**
   * Reads the pair for the first time. Throws `WebhookError` (`CertificateInvalid`) when it
   * cannot be read or does not load.
   */
  async load(): Promise<KeyPair> {
    const pair = await this.#read();
    try {
      createSecureContext(pair);
    } catch (error) {
      throw new WebhookError(
        'CertificateInvalid',
        `certificate ${this.#certFile} and key ${this.#keyFile} do not load: ${messageOf(error)}`,
        { cause: error },
      );
    }
    this.#current = pair;
    return pair;
  }

  /** Starts watching; {@link CertWatcher.stop} ends it. */
  start(): void {
    const folders = new Set([dirname(this.#certFile), dirname(this.#keyFile)]);
    for (const folder of folders) {
      const watcher = watch(folder, () => this.#schedule());
      watcher.on('error', (error) =>
        this.#logger.error({ err: error, folder }, 'certificate folder watch failed'),
      );
      this.#watchers.push(watcher);
    }
    this.#poll = setInterval(() => this.#schedule(), this.#pollIntervalMs);
    this.#poll.unref();
  }

  /** Stops watching. */
  stop(): void {
    for (const watcher of this.#watchers) watcher.close();
    this.#watchers = [];
    clearTimeout(this.#timer);
    clearInterval(this.#poll);
  }

  /** Reads the files now and applies a changed pair that loads; resolves once done. */
  reload(): Promise<void> {
    this.#reading = this.#reading.then(() => this.#reload());
    return this.#reading;
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.reload(), SETTLE_MS);
    this.#timer.unref();
  }

  async #reload(): Promise<void> {
    let pair: KeyPair;
    try {
      pair = await this.#read();
      if (pair.cert === this.#current?.cert && pair.key === this.#current.key) return;
      createSecureContext(pair);
    } catch (error) {
      this.#logger.error(
        { err: error, certFile: this.#certFile, keyFile: this.#keyFile },
        'new certificate does not load; keeping the current one',
      );
      return;
    }
    this.#current = pair;
    this.#onChange(pair);
    this.#logger.info({ certFile: this.#certFile }, 'serving certificate reloaded');
  }

  async #read(): Promise<KeyPair> {
    try {
      const [cert, key] = await Promise.all([
        readFile(this.#certFile, 'utf8'),
        readFile(this.#keyFile, 'utf8'),
      ]);
      return { cert, key };
    } catch (error) {
      throw new WebhookError(
        'CertificateInvalid',
        `cannot read certificate ${this.#certFile} or key ${this.#keyFile}: ${messageOf(error)}`,
        { cause: error },
      );
    }
  }
}
