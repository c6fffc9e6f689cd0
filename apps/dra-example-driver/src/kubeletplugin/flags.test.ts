import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { kubeletPluginUsage, parseKubeletPluginFlags } from './flags.js';

describe('kubelet plugin flags', () => {
  it('--help lists every flag with its default', () => {
    const text = kubeletPluginUsage();
    expect(text.startsWith('Usage: ctrlkit-dra-example-kubeletplugin [flags]')).toBe(true);
    for (const flag of [
      'kubeconfig',
      'node-name',
      'num-devices',
      'cdi-root',
      'kubelet-registrar-directory-path',
      'kubelet-plugins-directory-path',
      'metrics-bind-address',
      'health-probe-bind-address',
      'log-level',
      'help',
    ]) {
      expect(text).toContain(`\n  --${flag}`);
    }
    expect(text).toContain('(default "/var/run/cdi")');
    expect(text).toContain('(default "/var/lib/kubelet/plugins_registry")');
    expect(text).toContain('(default "/var/lib/kubelet/plugins")');
  });

  it('parses the flags, with NODE_NAME and the defaults', () => {
    const flags = parseKubeletPluginFlags(['--num-devices=2', '--cdi-root=/tmp/cdi'], {
      NODE_NAME: 'node-a',
    });
    expect(flags).toMatchObject({
      nodeName: 'node-a',
      numDevices: 2,
      cdiRoot: '/tmp/cdi',
      kubeletRegistrarDirectoryPath: '/var/lib/kubelet/plugins_registry',
      kubeletPluginsDirectoryPath: '/var/lib/kubelet/plugins',
      metricsBindAddress: ':8080',
      healthProbeBindAddress: ':8081',
    });
  });

  it('refuses a missing node name and a relative path, naming the flag', () => {
    expect(() => parseKubeletPluginFlags([], {})).toThrow(InvalidArgumentError);
    expect(() => parseKubeletPluginFlags([], {})).toThrow('--node-name');
    expect(() => parseKubeletPluginFlags(['--node-name=a', '--cdi-root=cdi'], {})).toThrow(
      'invalid --cdi-root: must be an absolute path, got "cdi"',
    );
  });
});
