import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { parseWebhookFlags, webhookUsage } from './webhook-flags.js';

describe('webhook flags', () => {
  it('--help lists every flag with its non-zero default', () => {
    const text = webhookUsage();
    for (const flag of [
      'kubeconfig',
      'tls-cert-file',
      'tls-private-key-file',
      'cert-dir',
      'port',
      'driver-name',
      'metrics-bind-address',
      'health-probe-bind-address',
      'log-level',
      'help',
    ]) {
      expect(text).toContain(`\n  --${flag}`);
    }
    expect(text).toContain('(default 9443)');
    expect(text).toContain('(default "/tmp/k8s-webhook-server/serving-certs")');
    expect(text).toContain('(default "gpu.example.com")');
  });

  it('defaults: the cert dir of controller-runtime, port 9443, driver gpu.example.com', () => {
    expect(parseWebhookFlags([], {})).toEqual({
      kubeconfig: '',
      certDir: '/tmp/k8s-webhook-server/serving-certs',
      certName: 'tls.crt',
      keyName: 'tls.key',
      port: 9443,
      driverName: 'gpu.example.com',
      metricsBindAddress: ':8080',
      healthProbeBindAddress: ':8081',
      logLevel: 'info',
      help: false,
    });
  });

  it('--tls-cert-file and --tls-private-key-file (upstream) name the files; DRIVER_NAME is read', () => {
    const flags = parseWebhookFlags(
      [
        '--tls-cert-file=/certs/server.pem',
        '--tls-private-key-file=/certs/server-key.pem',
        '--port=443',
      ],
      { DRIVER_NAME: 'other.example.com' },
    );
    expect(flags).toMatchObject({
      certDir: '/certs',
      certName: 'server.pem',
      keyName: 'server-key.pem',
      port: 443,
      driverName: 'other.example.com',
    });
  });

  it.each([
    [['--tls-cert-file=/certs/tls.crt'], '--tls-private-key-file'],
    [['--tls-private-key-file=/certs/tls.key'], '--tls-cert-file'],
    [['--tls-cert-file=/a/tls.crt', '--tls-private-key-file=/b/tls.key'], '--tls-private-key-file'],
    [['--driver-name='], '--driver-name'],
    [['--port=0'], 'port'],
  ])('rejects %j naming %s', (argv, field) => {
    expect(() => parseWebhookFlags(argv, {})).toThrow(InvalidArgumentError);
    expect(() => parseWebhookFlags(argv, {})).toThrow(field);
  });
});
