//! One pool of kept-alive connections per TLS configuration, as client-go's transport cache keeps one per `tls.Config`.

import * as http from 'node:http';
import * as https from 'node:https';

/**
 * How long a kept-alive connection may sit unused in the pool before it is closed: 30 s,
 * under the idle timeouts of the apiserver and of the proxies and load balancers in front
 * of it, so that a request rarely meets a connection the other side just closed.
 */
export const IDLE_CONNECTION_TIMEOUT_MS = 30_000;

/** What a TLS connection is made with: a different value needs another connection. */
export type TlsMaterial = Pick<
  https.AgentOptions,
  'ca' | 'cert' | 'key' | 'pfx' | 'passphrase' | 'rejectUnauthorized' | 'servername'
>;

/**
 * The keep-alive agent for the current TLS material (CA, client certificate and key,
 * verification, server name): one TLS handshake per connection, not per request. A new
 * agent replaces the old one when the material changes (a rotated client certificate);
 * the old pool's idle connections close once the server drops them.
 */
export class ConnectionPool {
  #pool: { readonly tls: TlsMaterial; readonly agent: http.Agent } | undefined;

  /** The agent for `options`' TLS material (`plain`: an `http:` server). */
  agentFor(options: https.RequestOptions, plain: boolean): http.Agent {
    const tls = tlsMaterial(options);
    const pool = this.#pool;
    if (pool !== undefined && sameTls(pool.tls, tls)) return pool.agent;
    const pooling = { keepAlive: true, timeout: IDLE_CONNECTION_TIMEOUT_MS };
    const agent = plain ? new http.Agent(pooling) : new TlsPoolAgent({ ...tls, ...pooling });
    this.#pool = { tls, agent };
    return agent;
  }

  /** Closes the idle connections (in-flight requests finish on theirs). */
  close(): void {
    this.#pool?.agent.destroy();
    this.#pool = undefined;
  }
}

/**
 * An `https.Agent` whose pool key (`getName`) leaves the TLS material out. Node's spells the
 * CA, client certificate and key out in full (kilobytes of PEM made into a string for every
 * request and looked up in the agent's tables several times); here every connection of one
 * agent is made with the agent's own material, which a changed one replaces with a new
 * agent, so the address and server name tell its connections apart.
 */
class TlsPoolAgent extends https.Agent {
  override getName(options?: https.RequestOptions): string {
    return `${http.Agent.prototype.getName.call(this, options)}:${options?.servername ?? ''}`;
  }
}

/** The TLS material of request options. */
export function tlsMaterial(options: https.RequestOptions): TlsMaterial {
  const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = options;
  return { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername };
}

/** True when `a` and `b` make the same TLS connections. */
export function sameTls(a: TlsMaterial, b: TlsMaterial): boolean {
  return (Object.keys(a) as Array<keyof TlsMaterial>).every((field) =>
    sameValue(a[field], b[field]),
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  return a === b;
}
