import { describe, expect, it } from 'vitest';
import { resolveControlPlaneOptions } from '../options.js';
import { componentFlags } from './component-flags.js';

const setup = {
  kubeconfig: '/d/kube-x.kubeconfig',
  port: 10259,
  servingCert: '/d/certs/x.crt',
  servingKey: '/d/certs/x.key',
  caCert: '/d/certs/ca.crt',
  caKey: '/d/certs/ca.key',
  serviceAccountKey: '/d/certs/sa.key',
};

describe('componentFlags', () => {
  it('runs kube-scheduler as kubeadm does, on loopback, without leader election', () => {
    const args = componentFlags('kube-scheduler', setup, resolveControlPlaneOptions({}));
    expect(args).toEqual([
      '--kubeconfig=/d/kube-x.kubeconfig',
      '--authentication-kubeconfig=/d/kube-x.kubeconfig',
      '--authorization-kubeconfig=/d/kube-x.kubeconfig',
      '--bind-address=127.0.0.1',
      '--secure-port=10259',
      '--tls-cert-file=/d/certs/x.crt',
      '--tls-private-key-file=/d/certs/x.key',
      '--leader-elect=false',
    ]);
  });

  it('gives kube-controller-manager the apiserver service-account key, its own SA credentials and the CA', () => {
    const args = componentFlags(
      'kube-controller-manager',
      setup,
      resolveControlPlaneOptions({ nodeMonitorGracePeriodMs: 10_000 }),
    );
    expect(args).toEqual(
      expect.arrayContaining([
        '--kubeconfig=/d/kube-x.kubeconfig',
        '--secure-port=10259',
        '--leader-elect=false',
        '--use-service-account-credentials=true',
        '--service-account-private-key-file=/d/certs/sa.key',
        '--root-ca-file=/d/certs/ca.crt',
        '--client-ca-file=/d/certs/ca.crt',
        '--cluster-signing-cert-file=/d/certs/ca.crt',
        '--cluster-signing-key-file=/d/certs/ca.key',
        '--controllers=*,bootstrap-signer-controller,token-cleaner-controller',
        '--node-monitor-grace-period=10000ms',
      ]),
    );
  });

  it('applies the extra flags of each component over the defaults', () => {
    const options = resolveControlPlaneOptions({
      schedulerFlags: { 'leader-elect': 'true', v: ['2'] },
      controllerManagerFlags: { controllers: '*,-ttl-controller' },
    });
    const scheduler = componentFlags('kube-scheduler', setup, options);
    expect(scheduler).toContain('--leader-elect=true');
    expect(scheduler).not.toContain('--leader-elect=false');
    expect(scheduler).toContain('--v=2');
    const manager = componentFlags('kube-controller-manager', setup, options);
    expect(manager).toContain('--controllers=*,-ttl-controller');
    expect(manager.some((a) => a.startsWith('--node-monitor-grace-period'))).toBe(false);
  });
});
