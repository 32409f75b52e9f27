/**
 * Shell completion scripts for bash, zsh and fish, made from the table
 * (server/cli/table.ts): commands, options, option values and operands
 * that are a list of words (input modes, shells, browsers), file names
 * where a file is expected. bash and zsh share one completion function
 * (POSIX `case` tables and an array walk that both shells run); fish gets
 * its declarative `complete` lines.
 *
 * @module
 */
import {
  COMMAND_NAMES,
  COMMANDS,
  type CommandSpec,
  MAIN,
  type OperandSpec,
  optionsOf,
  type OptionSpec,
} from "./table.ts";

/** The shells that have a completion script. */
export const COMPLETION_SHELLS = ["bash", "zsh", "fish"] as const;
/** One of {@linkcode COMPLETION_SHELLS}. */
export type CompletionShell = typeof COMPLETION_SHELLS[number];

/** What to offer at one place on the command line. */
interface Offer {
  words: string[];
  files: boolean;
  commands: boolean;
}

function emptyOffer(): Offer {
  return { words: [], files: false, commands: false };
}

function addOperand(offer: Offer, o: OperandSpec): void {
  offer.words.push(...o.choices ?? [], ...o.suggest ?? []);
  if (o.commands) offer.words.push(...COMMAND_NAMES);
  offer.files ||= o.files === true;
}

/**
 * What each operand position may take: position i may hold operand j when
 * j's optional predecessors were left out (`save [N|NAME] FILE`). The last
 * entry also applies to every later position when `variadic`.
 */
export function operandOffers(
  spec: CommandSpec,
): { offers: Offer[]; variadic: boolean } {
  const ops = spec.operands;
  const offers: Offer[] = ops.map(emptyOffer);
  let skippable = 0;
  ops.forEach((o, j) => {
    for (let i = Math.max(0, j - skippable); i <= j; i++) {
      addOperand(offers[i], o);
    }
    if (o.optional) skippable++;
  });
  const variadic = ops.at(-1)?.variadic === true;
  if (variadic && skippable > 0) {
    // A variadic operand may start early: its offer applies from there on.
    const last = ops.at(-1)!;
    for (let i = Math.max(0, ops.length - 1 - skippable); i < ops.length; i++) {
      addOperand(offers[i], last);
    }
  }
  return { offers, variadic };
}

function valueOffer(o: OptionSpec): Offer {
  return {
    words: [...o.suggest ?? []],
    files: o.files === true,
    commands: false,
  };
}

/** `s` as a single-quoted shell word. */
function sq(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

function optionWords(spec: CommandSpec, valued: boolean): string {
  // An option whose value is optional completes as a flag (`--pane`).
  return optionsOf(spec).filter((o) =>
    (o.value !== undefined && !o.optionalValue) === valued
  )
    .flatMap((o) => [...(o.short ? [`-${o.short}`] : []), `--${o.name}`])
    .join(" ");
}

/** The assignments of an offer in the shared function's variables. */
function offerAssignments(offer: Offer): string {
  const parts = [];
  const words = [...new Set(offer.words)];
  if (words.length) parts.push(`_dt_words=${sq(words.join(" "))}`);
  if (offer.files) parts.push("_dt_files=1");
  if (offer.commands) parts.push("_dt_cmds=1");
  return parts.join("; ");
}

/** The completion function both bash and zsh run. */
function sharedFunctions(): string {
  const all: CommandSpec[] = [MAIN, ...COMMANDS];
  const specCases = all.map((c) =>
    `    ${c === MAIN ? "''" : sq(c.name)}) _dt_flags=${
      sq(optionWords(c, false))
    }; _dt_valued=${sq(optionWords(c, true))}; _dt_rest=${c.rest ? 1 : "''"} ;;`
  ).join("\n");
  const valueCases: string[] = [];
  for (const c of all) {
    for (const o of optionsOf(c)) {
      const set = offerAssignments(valueOffer(o));
      if (o.value === undefined || o.optionalValue || !set) continue;
      const cmd = c === MAIN ? "" : c.name;
      valueCases.push(`    ${sq(`${cmd} --${o.name}`)}) ${set} ;;`);
    }
  }
  const operandCases: string[] = [];
  for (const c of COMMANDS) {
    const { offers, variadic } = operandOffers(c);
    offers.forEach((offer, i) => {
      const last = variadic && i === offers.length - 1;
      // A variadic operand's pattern matches its position and every later
      // one; the positions before it come first, even when they offer nothing.
      const pattern = last ? `${sq(`${c.name} `)}*` : sq(`${c.name} ${i}`);
      const set = offerAssignments(offer);
      if (set || variadic) operandCases.push(`    ${pattern}) ${set} ;;`);
    });
  }
  return `# The table of domterm's command line (server/cli/table.ts).
_domterm_spec() {
  case $1 in
${specCases}
    *) return 1 ;;
  esac
}

# _domterm_values CMD OPTION: what the value of OPTION may be.
_domterm_values() {
  case "$1 $2" in
${valueCases.join("\n")}
  esac
}

# _domterm_operand CMD N: what operand N (from 0) of CMD may be.
_domterm_operand() {
  case "$1 $2" in
${operandCases.join("\n")}
  esac
}

# _domterm_candidates CWORD WORD...: sets _dt_words (words to offer),
# _dt_files (offer file names) and _dt_cmds (offer command names) for the
# word at index CWORD (from 0, the program's name) of the command line.
_domterm_candidates() {
  [ -n "\${ZSH_VERSION-}" ] && setopt localoptions ksharrays
  local cword=$1
  shift
  local -a w
  w=("$@")
  local cur=\${w[cword]} cmd='' start=1 n=0 i ended='' value_of=''
  _dt_words='' _dt_files='' _dt_cmds=''
  # A subcommand is only ever the first argument.
  if ((cword > 1)) && _domterm_spec "\${w[1]}"; then
    cmd=\${w[1]}
    start=2
  else
    _domterm_spec ''
  fi
  for ((i = start; i < cword; i++)); do
    if [[ -z $ended && \${w[i]} == -- ]]; then
      if [[ -n $_dt_rest ]]; then
        # After '--': the command to run, then its arguments.
        if ((i == cword - 1)); then _dt_cmds=1; else _dt_files=1; fi
        return 0
      fi
      ended=1
    elif [[ -z $ended && \${w[i]} == -?* ]]; then
      if [[ " $_dt_valued " == *" \${w[i]} "* ]]; then
        ((i + 1 == cword)) && value_of=\${w[i]}
        ((i++))
      fi
    else
      ((n++))
    fi
  done
  if [[ -n $value_of ]]; then
    _domterm_values "$cmd" "$value_of"
  elif [[ -z $ended && $cur == -* ]]; then
    _dt_words="$_dt_flags $_dt_valued"
  elif ((cword == 1)); then
    _dt_words=${sq(COMMAND_NAMES.join(" "))}
  elif [[ -n $cmd ]]; then
    _domterm_operand "$cmd" "$n"
  fi
  return 0
}
`;
}

/** The bash completion script (`source <(domterm completion bash)`). */
export function bashCompletion(): string {
  return `# bash completion for domterm (made by 'domterm completion bash').
# Load it with: source <(domterm completion bash)
${sharedFunctions()}
_domterm() {
  local _dt_words _dt_files _dt_cmds _dt_flags _dt_valued _dt_rest
  local cur=\${COMP_WORDS[COMP_CWORD]} IFS=$'\\n'
  _domterm_candidates "$COMP_CWORD" "\${COMP_WORDS[@]}"
  COMPREPLY=()
  if [[ -n $_dt_cmds ]]; then
    COMPREPLY=($(compgen -c -- "$cur"))
    return 0
  fi
  [[ -n $_dt_words ]] && COMPREPLY=($(IFS=' ' compgen -W "$_dt_words" -- "$cur"))
  if [[ -n $_dt_files ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY+=($(compgen -f -- "$cur"))
  fi
  return 0
}
complete -F _domterm domterm
`;
}

/** The zsh completion script (a `_domterm` file in $fpath, or sourced after compinit). */
export function zshCompletion(): string {
  return `#compdef domterm
# zsh completion for domterm (made by 'domterm completion zsh').
# Save it as _domterm in a directory of $fpath, or source it after compinit.
${sharedFunctions()}
_domterm() {
  local _dt_words _dt_files _dt_cmds _dt_flags _dt_valued _dt_rest
  _domterm_candidates $((CURRENT - 1)) "\${words[@]}"
  if [[ -n $_dt_cmds ]]; then
    _command_names
    return
  fi
  [[ -n $_dt_words ]] && compadd -- \${=_dt_words}
  [[ -n $_dt_files ]] && _files
  return 0
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _domterm "$@"
else
  compdef _domterm domterm
fi
`;
}

/** A fish `complete` line's description. */
function fishDescription(help: string): string {
  const first = help.split(/[;:(]/)[0].trim();
  return sq(first.length > 60 ? `${first.slice(0, 57)}...` : first);
}

function fishOption(o: OptionSpec, condition: string): string {
  const parts = ["complete -c domterm", `-n ${sq(condition)}`];
  if (o.short) parts.push(`-s ${o.short}`);
  parts.push(`-l ${o.name}`);
  if (o.value !== undefined && !o.optionalValue) {
    parts.push(o.files ? "-r" : "-x");
    if (o.suggest?.length) parts.push(`-a ${sq(o.suggest.join(" "))}`);
  }
  parts.push(`-d ${fishDescription(o.help)}`);
  return parts.join(" ");
}

/** The fish completion script (~/.config/fish/completions/domterm.fish). */
export function fishCompletion(): string {
  const lines = [
    "# fish completion for domterm (made by 'domterm completion fish').",
    "# Save it as ~/.config/fish/completions/domterm.fish",
    "",
    "# The subcommand being completed ('' for none): only ever the first argument.",
    "function __domterm_command",
    "    set -l t (commandline -opc)",
    `    if test (count $t) -ge 2; and contains -- $t[2] ${
      COMMAND_NAMES.join(" ")
    }`,
    "        echo $t[2]",
    "    end",
    "end",
    "function __domterm_at",
    "    set -l c (__domterm_command)",
    '    test "$c" = "$argv[1]"',
    "end",
    "function __domterm_first",
    "    test (count (commandline -opc)) -eq 1",
    "end",
    "",
    "complete -c domterm -f",
  ];
  for (const c of COMMANDS) {
    lines.push(
      `complete -c domterm -n __domterm_first -a ${sq(c.name)} -d ${
        fishDescription(c.summary)
      }`,
    );
  }
  for (const o of MAIN.options) lines.push(fishOption(o, "__domterm_at ''"));
  for (const c of COMMANDS) {
    const condition = `__domterm_at ${c.name}`;
    for (const o of optionsOf(c)) lines.push(fishOption(o, condition));
    const offer = emptyOffer();
    for (const o of c.operands) addOperand(offer, o);
    if (offer.words.length) {
      lines.push(
        `complete -c domterm -n ${sq(condition)} -a ${
          sq(offer.words.join(" "))
        }`,
      );
    }
    if (offer.files) lines.push(`complete -c domterm -n ${sq(condition)} -F`);
  }
  return lines.join("\n") + "\n";
}

/** The completion script of `shell`. */
export function completionScript(shell: CompletionShell): string {
  switch (shell) {
    case "bash":
      return bashCompletion();
    case "zsh":
      return zshCompletion();
    case "fish":
      return fishCompletion();
  }
}
