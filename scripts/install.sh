#!/bin/sh
# `make install` and `make uninstall`: crates, its man page and its shell completions under
# PREFIX, in the places each tool looks for a user's own:
#   PREFIX/bin/crates
#   PREFIX/share/man/man1/crates.1                          (man finds it beside PREFIX/bin)
#   PREFIX/share/bash-completion/completions/crates         (bash-completion, per user)
#   PREFIX/share/zsh/site-functions/_crates                 (add to fpath)
#   PREFIX/share/fish/vendor_completions.d/crates.fish      (fish, per user)
#
#   scripts/install.sh install PREFIX BINARY GENERATE_MANUAL
#   scripts/install.sh uninstall PREFIX
#
# The completions come from the binary (swift-argument-parser's --generate-completion-script),
# the man page from its help (swift-argument-parser's generate-manual tool, which reads
# `crates --experimental-dump-help`), so both always describe the binary installed.
set -eu

action=${1:?install or uninstall}
prefix=${2:?PREFIX}

bin="$prefix/bin/crates"
man="$prefix/share/man/man1/crates.1"
bash_completion="$prefix/share/bash-completion/completions/crates"
zsh_completion="$prefix/share/zsh/site-functions/_crates"
fish_completion="$prefix/share/fish/vendor_completions.d/crates.fish"

case "$action" in
uninstall)
    for file in "$bin" "$man" "$bash_completion" "$zsh_completion" "$fish_completion"; do
        if [ -e "$file" ]; then
            rm -f "$file"
            echo "removed $file"
        fi
    done
    exit 0
    ;;
install) ;;
*)
    echo "scripts/install.sh: install or uninstall, not $action" >&2
    exit 64
    ;;
esac

binary=${3:?the crates binary}
generate_manual=${4:?the generate-manual tool}
[ -x "$binary" ] || { echo "scripts/install.sh: no crates binary at $binary" >&2; exit 1; }
[ -x "$generate_manual" ] || { echo "scripts/install.sh: no generate-manual tool at $generate_manual" >&2; exit 1; }

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT INT TERM

# Everything is made first, so that a failure installs nothing.
for shell in bash zsh fish; do
    "$binary" --generate-completion-script "$shell" >"$staging/completion.$shell"
done
mkdir "$staging/man"
"$generate_manual" "$binary" --output-directory "$staging/man"
[ -s "$staging/man/crates.1" ] || { echo "scripts/install.sh: generate-manual wrote no crates.1" >&2; exit 1; }
# generate-manual leaves blank lines between paragraphs, which mdoc warns about on every
# `man crates`: a paragraph break says the same without the warnings.
sed 's/^$/.Pp/' "$staging/man/crates.1" >"$staging/crates.1"

install -D -m 755 "$binary" "$bin"
install -D -m 644 "$staging/crates.1" "$man"
install -D -m 644 "$staging/completion.bash" "$bash_completion"
install -D -m 644 "$staging/completion.zsh" "$zsh_completion"
install -D -m 644 "$staging/completion.fish" "$fish_completion"
for file in "$bin" "$man" "$bash_completion" "$zsh_completion" "$fish_completion"; do echo "installed $file"; done
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) echo "note: $prefix/bin is not on PATH: add it (export PATH=\"$prefix/bin:\$PATH\")" ;;
esac
