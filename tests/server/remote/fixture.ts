/**
 * A real remote listener for tests: a throw-away self-signed certificate
 * made with `openssl`, a password file, and `domterm --listen 0.0.0.0:0`
 * (main.ts) with its own runtime directory and access log. Also a login
 * over HTTPS that trusts the certificate.
 *
 * @module
 */
import { hashPassword } from "../../../server/remote/password.ts";
import { spawnServer } from "../../e2e/domterm.ts";
import { runDomterm } from "../../run_domterm.ts";

/** The password of every test listener. */
export const PASSWORD = "tr0ub4dor&3 correct";

/** Files of a test listener. */
export interface RemoteFiles {
  dir: string;
  cert: string;
  key: string;
  passwordFile: string;
  accessLog: string;
  /** The certificate's PEM text (for clients that must trust it). */
  certPem: string;
}

/**
 * Make a directory with a self-signed certificate for 127.0.0.1 and
 * localhost (not a CA: a client takes it as its own trust anchor), its key
 * and a password file. Fails saying so when openssl is missing.
 */
export async function makeRemoteFiles(): Promise<RemoteFiles> {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-remote-" });
  const cert = `${dir}/cert.pem`, key = `${dir}/key.pem`;
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("openssl", {
      args: [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "2",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
        "-addext",
        "basicConstraints=critical,CA:FALSE",
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (e) {
    throw new Error(
      `openssl is missing (install Debian's openssl package): ${
        (e as Error).message
      }`,
    );
  }
  if (!out.success) {
    throw new Error(`openssl failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const passwordFile = `${dir}/password`;
  Deno.writeTextFileSync(passwordFile, (await hashPassword(PASSWORD)) + "\n");
  return {
    dir,
    cert,
    key,
    passwordFile,
    accessLog: `${dir}/access.log`,
    certPem: Deno.readTextFileSync(cert),
  };
}

/** A running remote listener. */
export interface RemoteServer {
  files: RemoteFiles;
  child: Deno.ChildProcess;
  /** What it printed: the login page's URL. */
  printedUrl: string;
  /** https://127.0.0.1:PORT (the origin tests talk to). */
  origin: string;
  /** Its runtime directory (for `domterm share`). */
  runtimeDir: string;
  /** An HTTP client that trusts the test certificate. */
  client: Deno.HttpClient;
  stop(): Promise<void>;
}

/** Start `domterm --listen 0.0.0.0:0` with TLS and the password, running `command`. */
export async function startRemote(
  command: string[],
  files?: RemoteFiles,
): Promise<RemoteServer> {
  const f = files ?? await makeRemoteFiles();
  const runtimeDir = `${f.dir}/run`;
  Deno.mkdirSync(runtimeDir, { mode: 0o700 });
  const { child, url } = await spawnServer([
    "--listen",
    "0.0.0.0:0",
    "--tls-cert",
    f.cert,
    "--tls-key",
    f.key,
    "--password-file",
    f.passwordFile,
    "--access-log",
    f.accessLog,
    "--",
    ...command,
  ], { DOMTERM_RUNTIME_DIR: runtimeDir, PS1: "$ " });
  const port = new URL(url).port;
  const client = Deno.createHttpClient({ caCerts: [f.certPem] });
  return {
    files: f,
    child,
    printedUrl: url,
    origin: `https://127.0.0.1:${port}`,
    runtimeDir,
    client,
    async stop() {
      client.close();
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      Deno.removeSync(f.dir, { recursive: true });
    },
  };
}

/** fetch() `path` of the server, trusting its certificate; redirects are not followed. */
export function remoteFetch(
  s: RemoteServer,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  // `client` is Deno's extension of RequestInit.
  return fetch(`${s.origin}${path}`, {
    redirect: "manual",
    ...init,
    client: s.client,
  } as RequestInit);
}

/** GET /login: the CSRF token of its form and the cookie that goes with it. */
export async function loginForm(
  s: RemoteServer,
): Promise<{ csrf: string; cookie: string }> {
  const res = await remoteFetch(s, "/login");
  const html = await res.text();
  if (res.status !== 200) throw new Error(`GET /login: ${res.status} ${html}`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  const cookie = res.headers.getSetCookie().find((c) =>
    c.startsWith("domterm_login_csrf=")
  );
  if (!csrf || !cookie) throw new Error(`no CSRF token in the login page`);
  return { csrf, cookie: cookie.split(";")[0] };
}

/** POST /login with `password` (a fresh form each time). */
export async function postLogin(
  s: RemoteServer,
  password: string,
): Promise<Response> {
  const { csrf, cookie } = await loginForm(s);
  return await remoteFetch(s, "/login", {
    method: "POST",
    headers: {
      cookie,
      origin: s.origin,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ csrf, password }).toString(),
  });
}

/** Log in; resolves with the login cookie (`name=value`). */
export async function logIn(s: RemoteServer): Promise<string> {
  const res = await postLogin(s, PASSWORD);
  await res.body?.cancel();
  const c = res.headers.getSetCookie().find((c) =>
    c.startsWith("domterm_auth=")
  );
  if (res.status !== 303 || !c) {
    throw new Error(`login failed: ${res.status}`);
  }
  return c.split(";")[0];
}

/** Run `domterm ARGS` against the server (its runtime directory). */
export async function domterm(
  s: RemoteServer,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return await runDomterm(args, { DOMTERM_RUNTIME_DIR: s.runtimeDir });
}
