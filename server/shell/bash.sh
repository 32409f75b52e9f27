# domterm shell integration for bash (4.4 or later).
#
# Tells the terminal which parts of the screen are prompt, input and output,
# and the current directory. Every mark is an OSC ending in ST (ESC \):
#
#   before each prompt   OSC 133;D;<status>;aid=<pid>  only if a command ran since the
#                                            previous prompt
#                        OSC 7;file://<host><cwd, percent-encoded>
#                        OSC 133;A;aid=<pid>;cl=m  (first thing in PS1)
#   end of PS1           OSC 133;B
#   before a command     OSC 133;C           (first thing in PS0)
#   continuation (PS2)   OSC 133;A;k=s ... OSC 133;B
#
# domterm sources this file after the user's own startup files (see
# server/shell/integration.ts); it may also be sourced by hand from
# ~/.bashrc. It does nothing in a non-interactive shell, when
# DOMTERM_SHELL_INTEGRATION=0, or when it was already loaded.
#
# The user's PS0/PS1/PS2 and PROMPT_COMMAND keep working: the marks are
# added around whatever PS1 holds at each prompt, so a PS1 changed at any time
# (by hand, by a theme, by another PROMPT_COMMAND) is wrapped again. All code
# here survives `set -u` and `set -e`.

if [ -z "${BASH_VERSION-}" ] || [[ $- != *i* ]] ||
  [[ ${DOMTERM_SHELL_INTEGRATION-} == 0 ]] || [[ -n ${__domterm_loaded-} ]]; then
  # `return` ends a sourced file; `exit` covers being run as a script.
  return 0 2>/dev/null || exit 0
fi

# PS0 (for the C mark) and ${var@P} (to tell an empty command line from a
# command) need bash 4.4; older versions get no integration at all.
if ((BASH_VERSINFO[0] < 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] < 4))); then
  return 0 2>/dev/null || exit 0
fi

__domterm_loaded=1

# The marks as they appear in the prompt strings: \[ \] tells readline that
# they take no room on the screen. PS0 is not shown by readline, so its mark
# has no \[ \] (bash would print the \001 \002 bytes).
# aid (the shell's pid) tells the terminal that a program started from
# here which marks its own prompts (a REPL, another shell) is nested.
__domterm_ps1_start='\[\e]133;A;aid='"$$"';cl=m\e\\\]'
__domterm_ps2_start='\[\e]133;A;k=s\e\\\]'
__domterm_input_start='\[\e]133;B\e\\\]'
__domterm_output_start='\e]133;C\e\\'

# "\#" in a prompt string is the number of the next command; it advances only
# when the shell ran something (not for an empty line or a syntax error).
__domterm_cmd_number_format='\#'
__domterm_cmd_number=
__domterm_status=0
__domterm_restore_status=1

# Start of the first entry of PROMPT_COMMAND: saves the exit status of the
# user's command before anything else can change it, then ends the command's
# output with D.
__domterm_prompt_start() {
  __domterm_status=$?
  local n=${__domterm_cmd_number_format@P}
  if [[ -n $__domterm_cmd_number && $n != "$__domterm_cmd_number" ]]; then
    builtin printf '\e]133;D;%s;aid=%s\e\\' "$__domterm_status" "$$"
  fi
  __domterm_cmd_number=$n
  return 0
}

# The rest of PROMPT_COMMAND and PS1 (e.g. a "$?" in it) expect $? to be the
# command's status, so the hooks return it. But a non-zero return would run
# the user's ERR trap a second time, or exit the shell under `set -e`: then
# the hooks return 0 instead. This test runs at the top level of
# PROMPT_COMMAND because functions do not see the ERR trap (without set -E);
# it forks only after a failed command.
__domterm_first_hook='__domterm_prompt_start
if ((__domterm_status)) && [[ $- == *e* || -n $(builtin trap -p ERR) ]]; then __domterm_restore_status=0; else __domterm_restore_status=1; fi
__domterm_return_status'

__domterm_return_status() {
  if ((__domterm_restore_status)); then
    return "$__domterm_status"
  fi
  return 0
}

# Percent-encodes $PWD for OSC 7 (bytes, not characters: the URL is UTF-8).
# The result is cached until the directory changes.
__domterm_pwd=
__domterm_pwd_url=
__domterm_encode_pwd() {
  local LC_ALL=C
  local out= c i
  for ((i = 0; i < ${#PWD}; i++)); do
    c=${PWD:i:1}
    case $c in
    [a-zA-Z0-9/._~-]) out+=$c ;;
    *)
      builtin printf -v c '%%%02X' "'$c"
      out+=$c
      ;;
    esac
  done
  __domterm_pwd_url=$out
  __domterm_pwd=$PWD
}

# Last entry of PROMPT_COMMAND: runs after the user's own prompt commands,
# which may have set PS1. Reports the directory and (re)wraps the prompts.
__domterm_prompt_end() {
  if [[ $PWD != "$__domterm_pwd" ]]; then
    __domterm_encode_pwd
  fi
  builtin printf '\e]7;file://%s%s\e\\' "${HOSTNAME-}" "$__domterm_pwd_url"

  # Remove our marks first, so that a prompt built from the wrapped one
  # (PS1="$PS1 x") is not wrapped twice.
  local p=${PS1-}
  p=${p//"$__domterm_ps1_start"/}
  p=${p//"$__domterm_input_start"/}
  PS1=$__domterm_ps1_start$p$__domterm_input_start

  p=${PS2-}
  p=${p//"$__domterm_ps2_start"/}
  p=${p//"$__domterm_input_start"/}
  PS2=$__domterm_ps2_start$p$__domterm_input_start

  # PS0 is printed after the command line was read, just before it runs.
  p=${PS0-}
  p=${p//"$__domterm_output_start"/}
  PS0=$__domterm_output_start$p

  __domterm_return_status
}

# Hook in first and last position. PROMPT_COMMAND may be an array (bash 5.1
# runs every element) or a string (older bash, or an array whose first
# element is all that 4.4/5.0 run).
if [[ $(builtin declare -p PROMPT_COMMAND 2>/dev/null) == "declare -a"* ]] &&
  ((BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1))); then
  PROMPT_COMMAND=("$__domterm_first_hook" "${PROMPT_COMMAND[@]}" __domterm_prompt_end)
else
  # Newlines, not ';', keep a user string ending in ';' or a comment valid.
  PROMPT_COMMAND="$__domterm_first_hook${PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}"$'\n'"__domterm_prompt_end"
fi
