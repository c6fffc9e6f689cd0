//! Bind addresses as controller-runtime writes them (`:8080`, `127.0.0.1:8080`, `0` for off), and the servers on them.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidArgumentError } from '@ctrlkit/core';
import { ManagerError } from './manager-error.js';

/** A parsed bind address: `host` undefined means every interface. */
export interface BindAddress {
  host: string | undefined;
  port: number;
}

/**
 * Parses `[host]:port` (`:8080`, `127.0.0.1:0`, `[::1]:8081`); `'0'` and `''` turn the
 * endpoint off (undefined). Throws {@link InvalidArgumentError} naming `field` otherwise.
 */
export function parseBindAddress(field: string, value: unknown): BindAddress | undefined {
  if (typeof value !== 'string') {
    throw new InvalidArgumentError(
      field,
      `expected a string such as ':8080' or '0', got ${String(value)}`,
    );
  }
  if (value === '0' || value === '') return undefined;
  const match = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(value);
  const port = match === null ? Number.NaN : Number(match[3]);
  if (match === null || port > 65_535) {
    throw new InvalidArgumentError(
      field,
      `expected [host]:port (e.g. ':8080', '127.0.0.1:0') or '0' to turn it off, got '${value}'`,
    );
  }
  const host = match[1] ?? match[2];
  return { host: host === '' ? undefined : host, port };
}

/** Starts an HTTP server on `address`; rejects with {@link ManagerError} `ListenFailed` naming `field`. */
export function listen(
  field: string,
  address: BindAddress,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', (cause) =>
      reject(
        new ManagerError(
          'ListenFailed',
          `cannot listen on ${field} ${format(address)}: ${cause.message}`,
          {
            field,
            cause,
          },
        ),
      ),
    );
    server.listen(address.port, address.host, () => resolve(server));
  });
}

/** `host:port` where `server` listens (`[::]:8080` for every interface). */
export function boundAddress(server: Server): string {
  const info = server.address() as AddressInfo;
  return info.family === 'IPv6' ? `[${info.address}]:${info.port}` : `${info.address}:${info.port}`;
}

/** Stops accepting, and ends open connections (keep-alive ones included). */
export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function format(address: BindAddress): string {
  return `${address.host ?? ''}:${address.port}`;
}
