//! ctrlkit-dra-example-kubeletplugin: flags, logger, Manager, signals.

import { runProgram } from '../program.js';
import { kubeletPluginUsage, parseKubeletPluginFlags } from './flags.js';
import { addKubeletPlugin } from './kubelet-plugin.js';

process.exitCode = await runProgram({
  name: 'ctrlkit-dra-example-kubeletplugin',
  parse: (argv) => parseKubeletPluginFlags(argv),
  usage: kubeletPluginUsage,
  setUp: (manager, flags, logger) => addKubeletPlugin(manager, { ...flags, logger }),
});
