/**
 * The local end of an ssh link: runs `ssh ... <remote-domterm> ssh-stdio`
 * through the user's own ssh (their config, agent and known_hosts apply),
 * exchanges hellos and one request, and then carries frames.
 *
 * @module
 */
import {
  type Frame,
  FRAME_LINK,
  FrameReader,
  linkFrame,
  type LinkMessage,
  parseLinkMessage,
  SSH_PROTOCOL_VERSION,
} from "./frames.ts";
import { sshCommandLine, type SshTarget, targetLabel } from "./target.ts";
import { VERSION } from "../version.ts";

/** How an ssh link is made. */
export interface LinkSpec {
  target: SshTarget;
  /** The ssh program and its options. */
  ssh: string[];
  /** How domterm runs on the remote host (a shell command prefix). */
  remoteDomterm: string;
}

/** What is kept of ssh's standard error, for messages. */
const STDERR_KEEP = 4096;

/** An ssh link that could not be made; `message` says why and what to do. */
export class LinkError extends Error {}

/** An open link. */
export class SshLink {
  readonly #child: Deno.ChildProcess;
  readonly #reader: FrameReader;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  #stderr = "";
  #closed = false;
  /** Resolves when ssh has exited. */
  readonly exited: Promise<Deno.CommandStatus>;

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.#reader = new FrameReader(child.stdout, true);
    this.#writer = child.stdin.getWriter();
    this.exited = child.status;
    (async () => {
      const dec = new TextDecoder();
      try {
        for await (const chunk of child.stderr) {
          this.#stderr = (this.#stderr + dec.decode(chunk, { stream: true }))
            .slice(-STDERR_KEEP);
        }
      } catch { /* closed */ }
    })();
  }

  /** The ssh process id (tests kill it to drop the link). */
  get pid(): number {
    return this.#child.pid;
  }

  /**
   * Run ssh, check the remote side's hello and send `request`. Resolves
   * with the link and the remote side's first answer to the request.
   * Throws a {@link LinkError} that says what went wrong.
   */
  static async open(
    spec: LinkSpec,
    request: LinkMessage,
  ): Promise<{ link: SshLink; answer: LinkMessage }> {
    const [cmd, ...args] = sshCommandLine(
      spec.ssh,
      spec.target,
      `${spec.remoteDomterm} ssh-stdio`,
    );
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(cmd, {
        args,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (e) {
      throw new LinkError(
        `cannot run '${cmd}' (${
          (e as Error).message
        }); domterm needs the OpenSSH client ('ssh') on PATH`,
      );
    }
    const link = new SshLink(child);
    try {
      await link.send(linkFrame({
        type: "hello",
        version: SSH_PROTOCOL_VERSION,
        domterm: VERSION,
      }));
      const hello = await link.#linkMessage(spec);
      if (hello.type === "error") throw new LinkError(hello.message);
      if (hello.type !== "hello") {
        throw new LinkError("the remote domterm did not say hello");
      }
      if (hello.version !== SSH_PROTOCOL_VERSION) {
        throw new LinkError(
          `domterm ${hello.domterm} on ${
            targetLabel(spec.target)
          } speaks link protocol version ${hello.version}, this domterm ${VERSION} speaks version ${SSH_PROTOCOL_VERSION}: install the same domterm version on both hosts`,
        );
      }
      await link.send(linkFrame(request));
      const answer = await link.#linkMessage(spec);
      if (answer.type === "error") throw new LinkError(answer.message);
      return { link, answer };
    } catch (e) {
      link.close();
      if (e instanceof LinkError) throw e;
      throw new LinkError((e as Error).message);
    }
  }

  /** The next link message; an end of the link becomes a LinkError that explains it. */
  async #linkMessage(spec: LinkSpec): Promise<LinkMessage> {
    let f: Frame | null;
    try {
      f = await this.#reader.next();
    } catch (e) {
      throw new LinkError(
        `the link to ${targetLabel(spec.target)} is broken: ${
          (e as Error).message
        }`,
      );
    }
    if (f === null) throw await this.#endError(spec);
    if (f.kind !== FRAME_LINK) {
      throw new LinkError("the remote domterm sent an unexpected frame");
    }
    const m = parseLinkMessage(f.payload);
    if (typeof m === "string") throw new LinkError(m);
    return m;
  }

  /** Why the link ended before it was set up. */
  async #endError(spec: LinkSpec): Promise<LinkError> {
    const status = await this.exited;
    // Let the last of standard error arrive.
    await new Promise((r) => setTimeout(r, 50));
    return new LinkError(
      explainFailure(spec, status.code, this.#stderr, this.#reader.preamble),
    );
  }

  /** Send one encoded frame (false when the link is gone). */
  async send(frame: Uint8Array): Promise<boolean> {
    if (this.#closed) return false;
    try {
      await this.#writer.write(frame);
      return true;
    } catch {
      return false;
    }
  }

  /** The next frame, or null when the link has ended (or broke). */
  async next(): Promise<Frame | null> {
    try {
      return await this.#reader.next();
    } catch {
      return null;
    }
  }

  /** What ssh printed on standard error lately. */
  get stderr(): string {
    return this.#stderr;
  }

  /**
   * Close the link: end ssh's input (the remote side sees the end and
   * leaves its session detached), then stop ssh.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#writer.close().catch(() => {});
    this.#reader.cancel();
    const t = setTimeout(() => {
      try {
        this.#child.kill("SIGTERM");
      } catch { /* gone */ }
    }, 2000);
    Deno.unrefTimer(t);
    this.exited.finally(() => clearTimeout(t));
  }
}

/**
 * The message for a link that ended before the remote domterm answered:
 * domterm missing on the host (exit 127, "not found"), ssh failing
 * (exit 255), or something else.
 */
export function explainFailure(
  spec: LinkSpec,
  code: number,
  stderr: string,
  stdout: string,
): string {
  const host = targetLabel(spec.target);
  const said = lastLines(stderr || stdout);
  if (code === 127 || /command not found|not found|No such file/i.test(said)) {
    return `domterm is not installed on ${host}, or not where ssh looked ('${spec.remoteDomterm}' was not found${
      said ? `: ${said}` : ""
    }). Install domterm on ${host} (the same version as here: a compiled 'domterm' binary in a directory on the PATH ssh commands get, e.g. /usr/local/bin, or Deno and 'deno install -g -A -n domterm jsr:@x/domterm'), or say where it is with --remote-domterm PATH (or $DOMTERM_REMOTE_DOMTERM).`;
  }
  if (code === 255) {
    return `ssh to ${host} failed${said ? `: ${said}` : ""}`;
  }
  return `the remote domterm on ${host} ended (exit status ${code})${
    said ? `: ${said}` : ""
  }`;
}

function lastLines(text: string): string {
  return text.trim().split("\n").slice(-3).join(" / ").slice(0, 600);
}
