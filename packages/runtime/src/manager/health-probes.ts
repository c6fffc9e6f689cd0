//! Named health checks served as `/healthz` and `/readyz` with controller-runtime's text format.

import type { ServerResponse } from 'node:http';

/** A health check: returns to pass, throws (or rejects) to fail. */
export type HealthCheck = () => void | Promise<void>;

/**
 * The checks behind one endpoint (controller-runtime's `healthz.Handler`): the root path
 * runs every check (`?exclude=name` skips one) and answers 200 `ok`, or 500 with one line
 * per check (`[+]name ok`, `[-]name failed: reason withheld`); `?verbose` lists them on
 * success too. `/<path>/<name>` runs one check (`ok`, or 500 `internal server error: …`).
 * With no check registered, a `ping` check passes.
 */
export class HealthChecks {
  readonly #checks = new Map<string, HealthCheck>();

  /** Adds a check; a name may be used once. */
  add(name: string, check: HealthCheck): void {
    this.#checks.set(name, check);
  }

  has(name: string): boolean {
    return this.#checks.has(name);
  }

  /** Answers a request whose path is `subPath` below the endpoint (`''` for the root). */
  async serve(subPath: string, url: URL, response: ServerResponse): Promise<void> {
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    if (subPath === '' || subPath === '/') return this.#serveAggregated(url, response);
    const name = subPath.replace(/^\/+/, '').replace(/\/+$/, '');
    const check =
      this.#checks.get(name) ?? (this.#checks.size === 0 && name === 'ping' ? () => {} : undefined);
    if (check === undefined) {
      response.writeHead(404).end('404 page not found\n');
      return;
    }
    const error = await run(check);
    if (error === undefined) response.writeHead(200).end('ok');
    else response.writeHead(500).end(`internal server error: ${message(error)}\n`);
  }

  async #serveAggregated(url: URL, response: ServerResponse): Promise<void> {
    const excluded = new Set(url.searchParams.getAll('exclude'));
    const names = [...this.#checks.keys()];
    const parts = await Promise.all(
      names.map(async (name) => {
        if (excluded.delete(name)) return { name, healthy: true, excluded: true };
        const error = await run(this.#checks.get(name) as HealthCheck);
        return { name, healthy: error === undefined, excluded: false };
      }),
    );
    if (names.length === 0) parts.push({ name: 'ping', healthy: true, excluded: false });
    parts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const failed = parts.some((part) => !part.healthy);
    response.writeHead(failed ? 500 : 200);
    if (!failed && !url.searchParams.has('verbose')) {
      response.end('ok');
      return;
    }
    let body = '';
    for (const part of parts) {
      if (part.excluded) body += `[+]${part.name} excluded: ok\n`;
      else if (part.healthy) body += `[+]${part.name} ok\n`;
      else body += `[-]${part.name} failed: reason withheld\n`;
    }
    if (excluded.size > 0) {
      const quoted = [...excluded].sort().map((name) => JSON.stringify(name));
      body += `warn: some health checks cannot be excluded: no matches for ${quoted.join(',')}\n`;
    }
    body += failed ? 'healthz check failed\n' : 'healthz check passed\n';
    response.end(body);
  }
}

/** Runs a check; its error, or undefined when it passed. */
async function run(check: HealthCheck): Promise<unknown> {
  try {
    await check();
    return undefined;
  } catch (error) {
    return error ?? new Error('check failed');
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
