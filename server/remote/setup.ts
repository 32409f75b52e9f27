/**
 * From the remote options to a running gate: validate them, print the
 * warnings, open the access log.
 *
 * @module
 */
import { type AccessLog, fileAccessLog } from "./access_log.ts";
import {
  RemoteOptionError,
  type RemoteOptionValues,
  validateRemoteOptions,
} from "./cli_options.ts";
import { RemoteGate } from "./gate.ts";

/**
 * The gate the options ask for; undefined when none was given (the
 * default loopback server). Throws RemoteOptionError (a usage error) or
 * Error (the access log cannot be opened).
 */
export function remoteGate(
  values: RemoteOptionValues,
  report: (m: string) => void,
): RemoteGate | undefined {
  const config = validateRemoteOptions(values);
  if (config === null) return undefined;
  if ("error" in config) throw new RemoteOptionError(config.error);
  for (const w of config.warnings) report(w);
  let log: AccessLog = { write() {} };
  if (config.accessLogPath !== null) {
    try {
      log = fileAccessLog(config.accessLogPath, report);
    } catch (e) {
      throw new Error(
        `cannot open the access log ${config.accessLogPath}: ${
          (e as Error).message
        }`,
      );
    }
  }
  return new RemoteGate(config, { log });
}
