import { describe, expect, it } from 'vitest';

describe('@ctrlkit/runtime/client (deprecated re-export of @ctrlkit/client)', () => {
  it("hands out @ctrlkit/client's own values, so both imports give the same classes", async () => {
    const client = (await import('@ctrlkit/client')) as Record<string, unknown>;
    const runtimeClient = (await import('./client.js')) as Record<string, unknown>;
    const shared = Object.keys(runtimeClient).filter((name) => name in client);
    expect(shared).toEqual(
      expect.arrayContaining(['Client', 'createClient', 'loadKubeConfig', 'ApiStatusError']),
    );
    for (const name of shared) expect([name, runtimeClient[name]]).toEqual([name, client[name]]);
    expect(runtimeClient.ApiStatusError).toBe(client.ApiStatusError);
  });
});
