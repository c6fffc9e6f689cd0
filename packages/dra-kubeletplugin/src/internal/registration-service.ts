//! pluginregistration.Registration: what the kubelet's plugin watcher asks the plugin.

import {
  status as grpcStatus,
  type ServiceError,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { DRA_PLUGIN_TYPE } from '../kubelet-grpc.js';
import type { RegistrationStatus } from '../plugin-options.js';

/** What GetInfo answers. */
export interface PluginInfo {
  readonly driverName: string;
  readonly endpoint: string;
  readonly supportedVersions: readonly string[];
}

/** The registration service's handlers, and the last status the kubelet sent. */
export class RegistrationService {
  #status: RegistrationStatus | undefined;
  readonly #info: PluginInfo;
  readonly #onStatus: (status: RegistrationStatus) => void;

  constructor(info: PluginInfo, onStatus: (status: RegistrationStatus) => void) {
    this.#info = info;
    this.#onStatus = onStatus;
  }

  /** The last NotifyRegistrationStatus, undefined before the first. */
  get status(): RegistrationStatus | undefined {
    return this.#status;
  }

  /** The handlers for `@grpc/grpc-js`'s `addService`. */
  handlers(): UntypedServiceImplementation {
    return {
      GetInfo: (_call: unknown, callback: (error: null, value: unknown) => void) => {
        callback(null, {
          type: DRA_PLUGIN_TYPE,
          name: this.#info.driverName,
          endpoint: this.#info.endpoint,
          supportedVersions: [...this.#info.supportedVersions],
        });
      },
      NotifyRegistrationStatus: (
        call: { request: { pluginRegistered: boolean; error: string } },
        callback: (error: Partial<ServiceError> | null, value?: unknown) => void,
      ) => {
        const status = {
          pluginRegistered: call.request.pluginRegistered,
          error: call.request.error,
        };
        this.#status = status;
        this.#onStatus(status);
        if (!status.pluginRegistered) {
          // As upstream: a failed registration is answered with an error.
          callback({
            code: grpcStatus.UNKNOWN,
            details: `failed registration process: ${status.error}`,
          });
          return;
        }
        callback(null, {});
      },
    };
  }
}
