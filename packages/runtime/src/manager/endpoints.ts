//! The manager's HTTP endpoints: `/metrics` from its registry, `/healthz` and `/readyz` from its checks.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { InvalidArgumentError } from '@ctrlkit/core';
import type { Registry } from 'prom-client';
import { type BindAddress, boundAddress, close, listen } from './bind-address.js';
import { type HealthCheck, HealthChecks } from './health-probes.js';

/** The endpoints a manager serves while it runs; an undefined address leaves that endpoint off. */
export class ManagerEndpoints {
  readonly #registry: Registry;
  readonly #metricsAddress: BindAddress | undefined;
  readonly #probeAddress: BindAddress | undefined;
  readonly #healthz = new HealthChecks();
  readonly #readyz = new HealthChecks();
  #servers: Server[] = [];
  #boundMetrics: string | undefined;
  #boundProbes: string | undefined;

  constructor(
    registry: Registry,
    metricsAddress: BindAddress | undefined,
    probeAddress: BindAddress | undefined,
  ) {
    this.#registry = registry;
    this.#metricsAddress = metricsAddress;
    this.#probeAddress = probeAddress;
  }

  /** `host:port` where `/metrics` listens, once bound. */
  get metricsAddress(): string | undefined {
    return this.#boundMetrics;
  }

  /** `host:port` where `/healthz` and `/readyz` listen, once bound. */
  get healthProbeAddress(): string | undefined {
    return this.#boundProbes;
  }

  /** Adds a check to `/healthz` or `/readyz`; throws `InvalidArgumentError` for a bad or taken name. */
  addCheck(kind: 'healthz' | 'readyz', name: string, check: HealthCheck): void {
    const checks = kind === 'healthz' ? this.#healthz : this.#readyz;
    if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
      throw new InvalidArgumentError(
        'name',
        `expected a ${kind} check name of letters, digits, '.', '_', '-', got ${String(name)}`,
      );
    }
    if (typeof check !== 'function') throw new InvalidArgumentError('check', 'expected a function');
    if (checks.has(name))
      throw new InvalidArgumentError('name', `a ${kind} check named ${name} exists`);
    checks.add(name, check);
  }

  /** Binds the metrics and probe endpoints. */
  async serve(): Promise<void> {
    if (this.#metricsAddress !== undefined) {
      const server = await listen(
        'metricsBindAddress',
        this.#metricsAddress,
        (request, response) => void this.#serveMetrics(request, response),
      );
      this.#servers.push(server);
      this.#boundMetrics = boundAddress(server);
    }
    if (this.#probeAddress !== undefined) {
      const server = await listen(
        'healthProbeBindAddress',
        this.#probeAddress,
        (request, response) => void this.#serveProbes(request, response),
      );
      this.#servers.push(server);
      this.#boundProbes = boundAddress(server);
    }
  }

  /** Closes every bound endpoint. */
  async close(): Promise<void> {
    await Promise.all(this.#servers.map(close));
    this.#servers = [];
  }

  async #serveMetrics(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('404 page not found\n');
      return;
    }
    try {
      const body = await this.#registry.metrics();
      response.writeHead(200, { 'Content-Type': this.#registry.contentType }).end(body);
    } catch (error) {
      response.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error));
    }
  }

  async #serveProbes(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const match = /^\/(healthz|readyz)(\/.*)?$/.exec(url.pathname);
    if (match === null) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('404 page not found\n');
      return;
    }
    const checks = match[1] === 'healthz' ? this.#healthz : this.#readyz;
    await checks.serve(match[2] ?? '', url, response);
  }
}
