//! Runs a function over numbered pieces with bounded parallelism (client-go's ParallelizeUntil).

import { checkFunction, checkInteger, checkOptions } from './internal/validate.js';

/** Options of {@link parallelizeUntil}. */
export interface ParallelizeOptions {
  /** Pieces a worker takes at a time. Default 1; values below 1 count as 1. */
  chunkSize?: number;
}

/**
 * Calls `doWorkPiece(i)` for every `i` in `[0, pieces)`, at most `workers` at a time,
 * each worker taking `chunkSize` consecutive pieces at once. Once `signal` fires no new
 * piece starts. Resolves when every worker has stopped.
 */
export async function parallelizeUntil(
  signal: AbortSignal | undefined,
  workers: number,
  pieces: number,
  doWorkPiece: (piece: number) => Promise<void> | void,
  options: ParallelizeOptions = {},
): Promise<void> {
  checkInteger(workers, 'workers', 1);
  checkInteger(pieces, 'pieces', 0);
  checkFunction(doWorkPiece, 'doWorkPiece');
  checkOptions(options, 'options', ['chunkSize']);
  if (pieces === 0) return;
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? 1));
  const chunks = Math.ceil(pieces / chunkSize);
  let nextChunk = 0;
  const worker = async (): Promise<void> => {
    while (nextChunk < chunks) {
      const chunk = nextChunk++;
      const end = Math.min(pieces, (chunk + 1) * chunkSize);
      for (let piece = chunk * chunkSize; piece < end; piece++) {
        if (signal?.aborted) return;
        await doWorkPiece(piece);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, chunks) }, worker));
}
