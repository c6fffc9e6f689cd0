//! ctrlkit-dra-example-kubeletplugin: flags, logger, Manager, signals.

import { loadKubeConfig, Manager } from '@ctrlkit/runtime';
import { runMain } from '@ctrlkit/runtime/cli';
import { pino } from 'pino';
import packageJson from '../../package.json' with { type: 'json' };
import { kubeletPluginUsage, parseKubeletPluginFlags } from './flags.js';
import { addKubeletPlugin } from './kubelet-plugin.js';

process.exitCode = await runMain({
  parse: (argv) => parseKubeletPluginFlags(argv),
  usage: kubeletPluginUsage,
  logger: (flags) => pino({ level: flags.logLevel, base: { app: 'dra-example-kubeletplugin' } }),
  async run(flags, logger, signal) {
    const manager = new Manager({
      kubeConfig: loadKubeConfig({
        kubeconfig: flags.kubeconfig || undefined,
        insecureSkipTlsVerify: flags.insecureSkipTlsVerify,
        logger,
      }),
      program: { name: 'ctrlkit-dra-example-kubeletplugin', version: packageJson.version },
      logger,
      metricsBindAddress: flags.metricsBindAddress,
      healthProbeBindAddress: flags.healthProbeBindAddress,
      contentType: flags.kubeApiContentType,
    });
    addKubeletPlugin(manager, { ...flags, logger });
    await manager.start(signal);
    logger.info({}, 'exiting');
  },
});
