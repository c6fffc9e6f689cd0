//! Picks free TCP ports on 127.0.0.1 (for the control plane, and for servers a test starts beside it).

import { createServer } from 'node:net';

/** A port that was free a moment ago (the caller handles the rare race with `PortInUseError`). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
