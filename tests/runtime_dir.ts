/**
 * A private runtime directory for each domterm server a test starts, so
 * that it neither finds the user's own server nor another test's (one
 * server per user is found through that directory: server/control.ts).
 *
 * @module
 */

/**
 * `env` plus a fresh `DOMTERM_RUNTIME_DIR` (unless `env` names one) and a
 * `DOMTERM_SETTINGS` that names no file (unless `env` names one), so no
 * test reads the user's settings.
 */
export function privateRuntimeEnv(
  env: Record<string, string> = {},
): Record<string, string> {
  const dir = env.DOMTERM_RUNTIME_DIR ||
    Deno.makeTempDirSync({ prefix: "domterm-test-run-" });
  return {
    DOMTERM_SETTINGS: `${dir}/no-settings.toml`,
    ...env,
    DOMTERM_RUNTIME_DIR: dir,
  };
}
