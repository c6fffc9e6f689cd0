//! The kubelet's /containerLogs/<namespace>/<pod>/<container> with its query: follow, tailLines, sinceSeconds, previous.

import type { ServerResponse } from 'node:http';
import { InvalidArgumentError } from '@ctrlkit/core';
import type { ContainerLogOptions } from '../providers/container-log.js';

/** What `/containerLogs` reads from a provider that keeps its containers' output. */
export interface ContainerLogsProvider {
  /** The kept output; throws a NotFound error for an unknown container (or no previous run). */
  getContainerLogs(
    namespace: string,
    pod: string,
    container: string,
    options?: ContainerLogOptions,
  ): string;
  /** Output written from now on, until the container's current run ends; returns the unsubscribe. */
  followContainerLogs?(
    namespace: string,
    pod: string,
    container: string,
    onData: (text: string) => void,
    onEnd: () => void,
  ): () => void;
}

/** The query of `/containerLogs` (virtual-kubelet's `ContainerLogOpts`, the fields served). */
export interface ContainerLogQuery extends ContainerLogOptions {
  follow: boolean;
}

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Parses `follow`, `previous` (Go booleans), `tailLines` and `sinceSeconds` (integers >= 0); InvalidArgumentError names a malformed one. */
export function parseContainerLogQuery(params: URLSearchParams): ContainerLogQuery {
  const bool = (name: string): boolean => {
    const value = params.get(name);
    if (value === null || value === '') return false;
    if (TRUE.has(value)) return true;
    if (FALSE.has(value)) return false;
    throw new InvalidArgumentError(
      name,
      `could not parse ${JSON.stringify(value)}: must be a boolean`,
    );
  };
  const count = (name: string): number | undefined => {
    const value = params.get(name);
    if (value === null || value === '') return undefined;
    if (!/^\d+$/.test(value))
      throw new InvalidArgumentError(
        name,
        `could not parse ${JSON.stringify(value)}: must be an integer >= 0`,
      );
    return Number(value);
  };
  return {
    follow: bool('follow'),
    previous: bool('previous'),
    tailLines: count('tailLines'),
    sinceSeconds: count('sinceSeconds'),
  };
}

/**
 * Writes the container's kept output as `query` selects it to `res`; with `follow` (not with
 * `previous`) keeps the response open and writes new output until the container's run ends
 * or the client goes.
 */
export function serveContainerLogs(
  provider: ContainerLogsProvider,
  [namespace, pod, container]: [string, string, string],
  query: ContainerLogQuery,
  res: ServerResponse,
): void {
  const text = provider.getContainerLogs(namespace, pod, container, query);
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  if (!query.follow || query.previous || provider.followContainerLogs === undefined) {
    res.end(text);
    return;
  }
  res.write(text);
  const unsubscribe = provider.followContainerLogs(
    namespace,
    pod,
    container,
    (chunk) => res.write(chunk),
    () => res.end(),
  );
  res.once('close', unsubscribe);
}
