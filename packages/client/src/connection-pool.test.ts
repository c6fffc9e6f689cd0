import type * as https from 'node:https';
import { describe, expect, it } from 'vitest';
import { ConnectionPool } from './connection-pool.js';

describe('ConnectionPool', () => {
  const ca = Buffer.from(
    `-----BEGIN CERTIFICATE-----\n${'A'.repeat(1200)}\n-----END CERTIFICATE-----\n`,
  );

  it('keys its TLS connections by address and server name, not by the PEM of the material', () => {
    const pool = new ConnectionPool();
    const agent = pool.agentFor({ ca }, false) as https.Agent;
    const name = agent.getName({ host: 'api.example', port: 6443, ca, servername: 'api' });
    expect(name).toBe('api.example:6443::api');
    expect(agent.getName({ host: 'api.example', port: 6443, ca, servername: 'other' })).not.toBe(
      name,
    );
    expect(agent.getName({ host: 'api.example', port: 443, ca, servername: 'api' })).not.toBe(name);
    pool.close();
  });

  it('keeps one agent while the TLS material is the same, and makes another when it changes', () => {
    const pool = new ConnectionPool();
    const agent = pool.agentFor({ ca }, false);
    expect(pool.agentFor({ ca: Buffer.from(ca) }, false)).toBe(agent);
    expect(pool.agentFor({ ca, rejectUnauthorized: false }, false)).not.toBe(agent);
    pool.close();
  });
});
