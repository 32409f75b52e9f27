/**
 * Parse a command line against its entry in server/cli/table.ts, with
 * `node:util`'s parseArgs in strict mode. Mistakes become one-line
 * UsageErrors that name the faulty argument and, for a typo, the nearest
 * valid name.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./errors.ts";
import { didYouMean } from "../../core/suggest.ts";
import { type CommandSpec, optionsOf, type OptionSpec } from "./table.ts";

/** A parsed command line. */
export interface ParsedArgs {
  /** Options given, by long name: `true` for a flag, else the parsed value. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The operands (before `--`, or all of them when the command takes no `--` command). */
  readonly operands: readonly string[];
  /** What follows `--` for a command that takes one; undefined without `--`. */
  readonly rest: readonly string[] | undefined;
}

/** True if flag `name` was given. */
export function flag(a: ParsedArgs, name: string): boolean {
  return a.options[name] === true;
}

/** The text value of option `name`, if given. */
export function text(a: ParsedArgs, name: string): string | undefined {
  const v = a.options[name];
  return typeof v === "string" ? v : undefined;
}

type NodeOptions = NonNullable<ParseArgsConfig["options"]>;

function nodeOptions(specs: readonly OptionSpec[]): NodeOptions {
  const out: NodeOptions = {};
  for (const o of specs) {
    out[o.name] = {
      type: o.value === undefined ? "boolean" : "string",
      ...(o.short ? { short: o.short } : {}),
    };
  }
  return out;
}

/**
 * Why parseArgs refused `argv`, in our words: the first unknown option
 * (with the nearest known one), option without its value, or flag given
 * a value. Null if none of those (then parseArgs' own message is used).
 */
function explain(argv: string[], specs: readonly OptionSpec[]): string | null {
  const { tokens } = parseArgs({
    args: argv,
    options: nodeOptions(specs),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const t of tokens) {
    if (t.kind !== "option") continue;
    const spec = specs.find((o) => o.name === t.name);
    if (spec === undefined) {
      const names = specs.flatMap((o) => [
        `--${o.name}`,
        ...(o.short ? [`-${o.short}`] : []),
      ]);
      return `unknown option '${t.rawName}'${didYouMean(t.rawName, names)}`;
    }
    if (spec.value === undefined && t.inlineValue) {
      return `option '${t.rawName}' takes no value`;
    }
    if (spec.value !== undefined && t.value === undefined) {
      return `option '${t.rawName}' needs a value`;
    }
    if (
      spec.value !== undefined && !t.inlineValue && t.value?.startsWith("-")
    ) {
      return `option '${t.rawName}' needs a value (for one that starts with '-', write ${t.rawName}=${t.value})`;
    }
  }
  return null;
}

/**
 * Parse `argv` (what follows the command's name) against `spec`. Throws
 * UsageError. With `--help`, returns as soon as the options are read
 * (operands are then not checked).
 */
export function parseCommand(
  spec: CommandSpec,
  argvIn: string[],
): ParsedArgs {
  const specs = optionsOf(spec);
  const argv = withOptionalValues(argvIn, specs);
  let tokens;
  try {
    ({ tokens } = parseArgs({
      args: argv,
      options: nodeOptions(specs),
      strict: true,
      allowPositionals: true,
      tokens: true,
    }));
  } catch (e) {
    throw new UsageError(explain(argv, specs) ?? (e as Error).message);
  }
  const options: Record<string, unknown> = {};
  const operands: string[] = [];
  let rest: string[] | undefined;
  for (const t of tokens) {
    if (t.kind === "option-terminator") rest = [];
    else if (t.kind === "positional") (rest ?? operands).push(t.value);
    else options[t.name] = t.value ?? true;
  }
  if (options.help === true) return { options, operands, rest };
  for (const o of specs) {
    const v = options[o.name];
    if (typeof v === "string" && o.parse) options[o.name] = o.parse(v);
  }
  // Without a command to run, '--' only ends the options.
  if (spec.rest === undefined && rest !== undefined) {
    operands.push(...rest);
    rest = undefined;
  }
  checkOperands(spec, operands);
  return { options, operands, rest };
}

/**
 * `argv` with each option that has an optional value and is given bare
 * (`--pane`, before any `--`) written with its default (`--pane=right`).
 */
function withOptionalValues(
  argv: string[],
  specs: readonly OptionSpec[],
): string[] {
  const end = argv.indexOf("--");
  return argv.map((a, i) => {
    if (end >= 0 && i > end) return a;
    const o = specs.find((o) => o.optionalValue && a === `--${o.name}`);
    return o ? `${a}=${o.optionalValue}` : a;
  });
}

function checkOperands(spec: CommandSpec, operands: string[]): void {
  const declared = spec.operands;
  const variadic = declared.at(-1)?.variadic === true;
  const required = declared.filter((o) => !o.optional);
  if (operands.length < required.length) {
    const missing = required[operands.length];
    throw new UsageError(
      missing.missing ?? `missing ${missing.name} operand`,
    );
  }
  if (!variadic && operands.length > declared.length) {
    const extra = operands[declared.length];
    throw new UsageError(
      `unexpected argument '${extra}'` +
        (spec.rest ? " (to run a command, put it after '--')" : ""),
    );
  }
  // Operands fill the required places first: `save [N|NAME] FILE`.
  let optionalLeft = operands.length - required.length;
  let i = 0;
  for (const o of declared) {
    if (i >= operands.length) break;
    if (o.optional && !o.variadic) {
      if (optionalLeft === 0) continue;
      optionalLeft--;
    }
    const values = o.variadic ? operands.slice(i) : [operands[i]];
    i += values.length;
    if (!o.choices) continue;
    for (const v of values) {
      if (!o.choices.includes(v)) {
        throw new UsageError(
          o.badChoice?.(v) ?? `'${v}' is not one of ${o.choices.join(", ")}`,
        );
      }
    }
  }
}
