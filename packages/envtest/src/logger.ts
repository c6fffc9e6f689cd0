//! Where envtest reports progress: the `Logger` of `@ctrlkit/core` (pino satisfies it).

import type { Logger } from '@ctrlkit/core';

const write =
  (prefix: string) =>
  (context: object, message?: string): void => {
    const fields = Object.entries(context).map(([k, v]) => ` ${k}=${JSON.stringify(v)}`);
    process.stderr.write(`[envtest] ${prefix}${message ?? ''}${fields.join('')}\n`);
  };

/** Writes `info`, `warn` and `error` lines to stderr with an `[envtest]` prefix; drops `debug`. */
export const stderrLogger: Logger = {
  debug: () => {},
  info: write(''),
  warn: write('warning: '),
  error: write('error: '),
};
