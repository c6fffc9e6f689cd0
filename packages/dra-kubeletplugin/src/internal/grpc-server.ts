//! A gRPC server on a Unix domain socket: stale socket removed first, socket removed on stop.

import { rm } from 'node:fs/promises';
import { type Server, ServerCredentials } from '@grpc/grpc-js';

/** How long `stop()` lets calls in flight finish before cutting them, in ms. */
const GRACEFUL_STOP_MS = 5_000;

/** A running server and its socket. */
export interface UnixGrpcServer {
  readonly socketPath: string;
  /** Stops accepting, waits for calls in flight (at most 5 s), removes the socket. Idempotent. */
  stop(): Promise<void>;
}

/** Starts `server` (services already added) listening on `socketPath`. */
export async function listenUnix(server: Server, socketPath: string): Promise<UnixGrpcServer> {
  await rm(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.bindAsync(`unix://${socketPath}`, ServerCredentials.createInsecure(), (error) =>
      error
        ? reject(new Error(`listen on ${socketPath}: ${error.message}`, { cause: error }))
        : resolve(),
    );
  });
  let stopped: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    const timer = setTimeout(() => server.forceShutdown(), GRACEFUL_STOP_MS);
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    clearTimeout(timer);
    await rm(socketPath, { force: true });
  };
  return {
    socketPath,
    stop: () => {
      stopped ??= stop();
      return stopped;
    },
  };
}
