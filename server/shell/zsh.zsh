# domterm shell integration for zsh.
#
# Tells the terminal which parts of the screen are prompt, input and output,
# and the current directory. Every mark is an OSC ending in ST (ESC \):
#
#   before each prompt   OSC 133;D;<status>;aid=<pid>  only if a command ran since the
#                                            previous prompt
#                        OSC 7;file://<host><cwd, percent-encoded>
#                        OSC 133;A;aid=<pid>;cl=m
#   end of PROMPT        OSC 133;B
#   before a command     OSC 133;C
#   continuation         OSC 133;A;k=s ... OSC 133;B  around PROMPT2
#
# D, OSC 7 and A are printed by a precmd hook rather than put into PROMPT:
# zle redraws the prompt (zle reset-prompt, used by async themes) and every
# redraw would start a new prompt in the terminal. B sits at the end of
# PROMPT inside %{ %} (no width), where a redraw repeats it harmlessly.
#
# domterm sources this file at the end of the user's .zshrc (see
# server/shell/integration.ts); it may also be sourced by hand. It does
# nothing in a non-interactive shell, when DOMTERM_SHELL_INTEGRATION=0, or
# when it was already loaded. The user's PROMPT, themes (oh-my-zsh,
# powerlevel10k, starship) and hooks keep working: the marks are added around
# whatever PROMPT holds at each prompt.

if [[ ! -o interactive || ${DOMTERM_SHELL_INTEGRATION-} == 0 ||
  -n ${__domterm_loaded-} ]]; then
  return 0
fi
typeset -g __domterm_loaded=1

# A command ran since the last prompt (set by preexec, which zsh does not
# call for an empty line).
typeset -gi __domterm_ran=0
typeset -g __domterm_pwd= __domterm_pwd_url=

# The marks as they appear in PROMPT / PROMPT2.
typeset -g __domterm_input_start=$'%{\e]133;B\e\\%}'
typeset -g __domterm_ps2_start=$'%{\e]133;A;k=s\e\\%}'

# Percent-encodes $PWD for OSC 7, byte by byte (the URL is UTF-8); cached
# until the directory changes.
__domterm_encode_pwd() {
  emulate -L zsh
  setopt no_multibyte
  local out= c h
  local -i i
  for ((i = 1; i <= $#PWD; i++)); do
    c=$PWD[i]
    case $c in
    ([a-zA-Z0-9/._~-]) out+=$c ;;
    (*)
      printf -v h '%%%02X' "'$c"
      out+=$h
      ;;
    esac
  done
  __domterm_pwd_url=$out
  __domterm_pwd=$PWD
}

# First precmd hook. zsh gives every precmd hook the status of the user's
# command in $?, whatever the hooks before it returned.
__domterm_precmd() {
  local -i st=$?
  emulate -L zsh
  if ((__domterm_ran)); then
    __domterm_ran=0
    print -rn -- $'\e]133;D;'$st';aid='$$$'\e\\'
  fi
  return 0
}

# Last precmd hook: after the theme's hooks, which may have set PROMPT.
__domterm_precmd_last() {
  emulate -L zsh
  [[ $PWD == $__domterm_pwd ]] || __domterm_encode_pwd
  print -rn -- $'\e]7;file://'$HOST$__domterm_pwd_url$'\e\\\e]133;A;aid='$$$';cl=m\e\\'

  # Remove our marks before adding them, so that PROMPT="$PROMPT x" does
  # not wrap twice. (A parameter used as a pattern matches literally.)
  local p=${PROMPT//$__domterm_input_start}
  PROMPT=$p$__domterm_input_start
  p=${${PROMPT2//$__domterm_ps2_start}//$__domterm_input_start}
  PROMPT2=$__domterm_ps2_start$p$__domterm_input_start

  # Hooks added later (a plugin loaded after us) would run after this one
  # and might change PROMPT unwrapped: move us back to the end, for the next
  # prompt.
  if [[ ${precmd_functions[-1]-} != __domterm_precmd_last ]]; then
    precmd_functions=(${precmd_functions:#__domterm_precmd_last} __domterm_precmd_last)
  fi
  return 0
}

__domterm_preexec() {
  emulate -L zsh
  __domterm_ran=1
  print -rn -- $'\e]133;C\e\\'
}

autoload -Uz add-zsh-hook
add-zsh-hook precmd __domterm_precmd
add-zsh-hook precmd __domterm_precmd_last
add-zsh-hook preexec __domterm_preexec
# The status hook goes first so that D precedes anything other hooks print.
precmd_functions=(__domterm_precmd ${precmd_functions:#__domterm_precmd})
