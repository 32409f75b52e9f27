/**
 * A private runtime directory for each domterm server a test starts, so
 * that it neither finds the user's own server nor another test's (one
 * server per user is found through that directory: server/control.ts).
 *
 * @module
 */

/**
 * Deno's module cache as this test process uses it. A domterm started with
 * another HOME (tests that give the shell its own startup files) must still
 * find its npm packages there: otherwise it downloads them all again, which
 * takes seconds under load and fails without a network.
 */
export const TEST_DENO_DIR = Deno.env.get("DENO_DIR") ||
  `${
    Deno.env.get("XDG_CACHE_HOME") ||
    `${Deno.env.get("HOME") ?? ""}/.cache`
  }/deno`;

/**
 * `env` plus `DENO_DIR` (unless `env` names one), a fresh
 * `DOMTERM_RUNTIME_DIR` (unless `env` names one), a
 * `DOMTERM_SETTINGS` that names no file and an `XDG_STATE_HOME` in it
 * (unless `env` names them), so no test reads the user's settings or
 * journals (server/journal/) or writes its own among them.
 */
export function privateRuntimeEnv(
  env: Record<string, string> = {},
): Record<string, string> {
  const dir = env.DOMTERM_RUNTIME_DIR ||
    Deno.makeTempDirSync({ prefix: "domterm-test-run-" });
  return {
    DENO_DIR: TEST_DENO_DIR,
    DOMTERM_SETTINGS: `${dir}/no-settings.toml`,
    // Its journals and log too (a server would restore another's sessions).
    XDG_STATE_HOME: `${dir}/state`,
    ...env,
    DOMTERM_RUNTIME_DIR: dir,
  };
}
