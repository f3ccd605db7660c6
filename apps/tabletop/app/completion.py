"""``tabletop completion bash|zsh|fish``: a shell completion script made from the parser.

Why generated here rather than with shtab or argcomplete: the script is written once from
``build_parser()`` (so a new sub-command or flag is completed as soon as it exists),
needs no extra dependency, and costs nothing at run time: argcomplete would run the
command on every Tab press, and shtab has no fish. Game ids are completed from
``tabletop games``, which answers from its cache in a few tens of milliseconds.

Install: ``tabletop completion bash > ~/.local/share/bash-completion/completions/tabletop``,
``source <(tabletop completion zsh)`` in ``~/.zshrc``, ``tabletop completion fish >
~/.config/fish/completions/tabletop.fish``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

SHELLS = ("bash", "zsh", "fish")
#: Positional arguments (by dest) completed with the installed games' ids.
GAME_ARGUMENTS = frozenset({"game", "games"})
#: Sub-commands whose positional arguments are game ids whatever their name.
GAME_COMMANDS = frozenset({"uninstall"})
#: How the completion scripts list game ids: the first word of each game line of
#: ``tabletop games`` (ids are lower case; notes and failures are not).
GAME_IDS = "tabletop games 2>/dev/null | awk '/^[a-z0-9]/ {print $1}'"


@dataclass
class Command:
    """What completion needs to know of one sub-command."""

    name: str
    summary: str
    flags: list[tuple[list[str], bool, str]] = field(default_factory=list)
    """(option strings, takes a value, help) of each option."""
    positional: str = ""
    """How its positional arguments complete: "game", "file", a choice list, or ""."""
    choices: list[str] = field(default_factory=list)


def _help(action: argparse.Action) -> str:
    text = (action.help or "").replace("%%", "%")
    return text.split(";")[0].split(" (")[0][:70]


def _options(parser: argparse.ArgumentParser) -> list[tuple[list[str], bool, str]]:
    return [
        (list(action.option_strings), action.nargs != 0, _help(action))
        for action in parser._actions
        if action.option_strings and action.help != argparse.SUPPRESS
    ]


def commands(parser: argparse.ArgumentParser) -> tuple[Command, list[Command]]:
    """The top-level options (as a nameless command) and every sub-command."""
    top = Command("", "", _options(parser))
    found: list[Command] = []
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        summaries = {choice.dest: choice.help or "" for choice in action._choices_actions}
        for name, sub in action.choices.items():
            command = Command(name, summaries.get(name, ""), _options(sub))
            for positional in sub._actions:
                if positional.option_strings:
                    continue
                if positional.choices:
                    command.positional = "choices"
                    command.choices = [str(choice) for choice in positional.choices]
                elif positional.dest in GAME_ARGUMENTS or name in GAME_COMMANDS:
                    command.positional = "game"
                else:
                    command.positional = command.positional or "file"
            found.append(command)
    return top, found


def _words(values: list[str]) -> str:
    return " ".join(values)


def bash(parser: argparse.ArgumentParser) -> str:
    """A bash completion function (also loaded by zsh through bashcompinit)."""
    top, subs = commands(parser)
    cases = []
    for command in subs:
        flags = [flag for strings, _, _ in command.flags for flag in strings]
        valued = [flag for strings, value, _ in command.flags if value for flag in strings]
        if command.positional == "game":
            words = "@games"  # listed only when they are to be completed
        elif command.positional == "choices":
            words = f'"{_words(command.choices)}"'
        else:
            words = '""'
        cases.append(
            f'        {command.name}) opts="{_words(flags)}"; valued=" {_words(valued)} "; '
            f"words={words} ;;"
        )
    top_flags = [flag for strings, _, _ in top.flags for flag in strings]
    return f"""\
# bash completion for tabletop (tabletop completion bash)
_tabletop() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    local cmd="" i opts="" valued="" words=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${{COMP_WORDS[i]}}" in
            -*) ;;
            *) cmd="${{COMP_WORDS[i]}}"; break ;;
        esac
    done
    if [[ -z "$cmd" ]]; then
        COMPREPLY=($(compgen -W "{_words([c.name for c in subs])} {_words(top_flags)}" \\
            -- "$cur"))
        return
    fi
    case "$cmd" in
{chr(10).join(cases)}
        *) return ;;
    esac
    if [[ "$valued" == *" $prev "* ]]; then
        return  # an option's value: the shell's default (file names)
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ -n "$words" ]]; then
        [[ "$words" == @games ]] && words="$({GAME_IDS})"
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    fi
}}
complete -o default -F _tabletop tabletop
"""


def zsh(parser: argparse.ArgumentParser) -> str:
    """zsh: the bash function through zsh's bashcompinit (one script to keep right).
    compinit is run only when the user's own ~/.zshrc has not run it (running it again
    costs every new shell, and resets what the user set up after it)."""
    return (
        "# zsh completion for tabletop: source <(tabletop completion zsh) in ~/.zshrc\n"
        "(( $+functions[compdef] )) || { autoload -U +X compinit && compinit }\n"
        "autoload -U +X bashcompinit && bashcompinit\n" + bash(parser)
    )


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish(parser: argparse.ArgumentParser) -> str:
    """fish: one ``complete`` line per sub-command and per option, with their help."""
    top, subs = commands(parser)
    lines = [
        "# fish completion for tabletop (tabletop completion fish)",
        "complete -c tabletop -f",
    ]
    for command in subs:
        lines.append(
            f"complete -c tabletop -n __fish_use_subcommand -a {command.name} "
            f"-d {_fish_quote(command.summary)}"
        )
    for command in [top, *subs]:
        condition = (
            "__fish_use_subcommand"
            if not command.name
            else f"'__fish_seen_subcommand_from {command.name}'"
        )
        for strings, value, text in command.flags:
            parts = [f"complete -c tabletop -n {condition}"]
            for flag in strings:
                parts.append(f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}")
            if value:
                parts.append("-r -F")
            parts.append(f"-d {_fish_quote(text)}")
            lines.append(" ".join(parts))
        seen = f"'__fish_seen_subcommand_from {command.name}'"
        if command.positional == "game":
            lines.append(f'complete -c tabletop -n {seen} -a "({GAME_IDS})"')
        elif command.positional == "choices":
            lines.append(f'complete -c tabletop -n {seen} -a "{_words(command.choices)}"')
        elif command.positional == "file":
            lines.append(f"complete -c tabletop -n {seen} -F")
    return "\n".join(lines) + "\n"


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script for ``shell`` (one of SHELLS)."""
    return {"bash": bash, "zsh": zsh, "fish": fish}[shell](parser)
