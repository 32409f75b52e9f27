# domterm shell integration for fish.
#
# Tells the terminal which parts of the screen are prompt, input and output,
# and the current directory. Every mark is an OSC ending in ST (ESC \):
#
#   before each prompt   OSC 133;D;<status>;aid=<pid>  only if a command ran since the
#                                            previous prompt
#                        OSC 7;file://<host><cwd, percent-encoded>
#                        OSC 133;A;aid=<pid>;cl=m
#   end of fish_prompt   OSC 133;B
#   before a command     OSC 133;C
#
# fish has no continuation prompt (a multi-line command is edited as one
# buffer), so there is no k=s mark.
#
# fish 4.0 and later write the OSC 133 marks themselves (feature flag
# "mark-prompt"); then this script only adds OSC 7, so that the marks are not
# doubled.
#
# D, OSC 7 and A are printed from the fish_prompt event rather than by
# fish_prompt itself: fish runs fish_prompt again for every repaint, and each
# repaint would start a new prompt in the terminal. B is printed at the end
# of fish_prompt's output (fish gives escape sequences no width there).
#
# domterm runs this file with `fish --init-command`, after config.fish (see
# server/shell/integration.ts); it may also be sourced by hand. It does
# nothing in a non-interactive shell, when DOMTERM_SHELL_INTEGRATION=0, or
# when it was already loaded. The user's fish_prompt (or a theme's, e.g.
# starship or tide) keeps working: it is wrapped, not replaced, and wrapped
# again if it is redefined later.

if status is-interactive
    and test "$DOMTERM_SHELL_INTEGRATION" != 0
    and not set -q __domterm_loaded

    set -g __domterm_loaded 1
    # 0 when fish marks prompts itself (status test-feature: 0 on, 1 off,
    # 2 unknown feature, i.e. fish 3).
    set -g __domterm_marks 1
    if status test-feature mark-prompt 2>/dev/null
        set __domterm_marks 0
    end

    # Status of the last command; empty when no command ran since the
    # previous prompt (fish sends no fish_postexec for an empty line).
    set -g __domterm_status

    function __domterm_postexec --on-event fish_postexec
        set -g __domterm_status $status
    end

    function __domterm_preexec --on-event fish_preexec
        test $__domterm_marks = 1; and printf '\e]133;C\e\\'
    end

    function __domterm_prompt_event --on-event fish_prompt
        if test $__domterm_marks = 1; and test -n "$__domterm_status"
            printf '\e]133;D;%s;aid=%s\e\\' $__domterm_status $fish_pid
        end
        set -g __domterm_status
        # string escape --style=url keeps / and percent-encodes the UTF-8
        # bytes of everything but letters, digits and -_.~
        printf '\e]7;file://%s%s\e\\' $hostname (string escape --style=url -- $PWD)
        if test $__domterm_marks = 1
            printf '\e]133;A;aid=%s;cl=m\e\\' $fish_pid
            __domterm_wrap_prompt
        end
    end

    # Makes fish_prompt print B after the user's prompt: the user's function
    # is kept as __domterm_user_prompt. Called at every prompt, so a prompt
    # defined later (fish_config, a theme loaded at runtime) is wrapped too.
    function __domterm_wrap_prompt
        # The wrapper contains this name; any other definition is the user's.
        if functions -q fish_prompt
            and string match -q '*__domterm_user_prompt*' -- (functions fish_prompt)
            return
        end
        functions -e __domterm_user_prompt
        if functions -q fish_prompt
            functions --copy fish_prompt __domterm_user_prompt
        else
            # No prompt at all: fish's fallback.
            function __domterm_user_prompt
                printf '%s> ' $PWD
            end
        end
        function fish_prompt
            # $status and $pipestatus pass through to the user's prompt,
            # which may show them.
            __domterm_user_prompt
            printf '\e]133;B\e\\'
        end
    end
end
