/**
 * A private runtime directory for each domterm server a test starts, so
 * that it neither finds the user's own server nor another test's (one
 * server per user is found through that directory: server/control.ts).
 *
 * @module
 */

/** `env` plus a fresh `DOMTERM_RUNTIME_DIR` (unless `env` names one). */
export function privateRuntimeEnv(
  env: Record<string, string> = {},
): Record<string, string> {
  if (env.DOMTERM_RUNTIME_DIR) return env;
  const dir = Deno.makeTempDirSync({ prefix: "domterm-test-run-" });
  return { ...env, DOMTERM_RUNTIME_DIR: dir };
}
