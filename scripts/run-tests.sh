#!/usr/bin/env bash
# Runs the given test command, its output shown as it comes and kept. When it fails, the
# failing tests' own lines are printed again at the very end: CI keeps only the tail of a
# log, and a failure hundreds of lines above it would otherwise be lost.
set -uo pipefail

# The suite runs some 700 tests at once in one process, each with its databases, pipes,
# sockets and loopback servers: at its peak it holds some 1,700 descriptors, past the soft
# limit of 1,024 many machines start a shell with ("Too many open files" in any test).
# Raise the soft limit to the hard one, to at most 65,536.
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -gt 65536 ]; then hard=65536; fi
if [ "$(ulimit -Sn)" != unlimited ] && [ "$(ulimit -Sn)" -lt "$hard" ]; then ulimit -Sn "$hard"; fi
echo "== open files: soft limit $(ulimit -Sn), hard limit $(ulimit -Hn)"

log=$(mktemp "${TMPDIR:-/tmp}/crates-test-log.XXXXXX")
trap 'rm -f "$log"' EXIT

"$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# The ten slowest tests, from Swift Testing's "✔ Test … passed after N seconds." lines:
# where the time of a run goes, and which test to look at when it grows.
echo
echo "== The ten slowest tests:"
grep -aE '^[✔✘] Test .* (passed|failed) after [0-9.]+ seconds' "$log" | grep -av '^. Test run with' \
  | sed -E 's/^[✔✘] Test (.*) (passed|failed) after ([0-9.]+) seconds.*/\3\t\1/' \
  | sort -rn -k1,1 | head -n 10 | awk -F'\t' '{ printf "  %7.1f s  %s\n", $1, substr($2, 1, 150) }'

# How long a task waited for a thread of the cooperative pool at the worst (PoolWaitProbe):
# what the tests' waits must allow for.
grep -a '^== pool-wait probe:' "$log"

[ "$status" -eq 0 ] && exit 0

echo
echo "== The test command failed (exit $status). What failed, repeated from above:"
# Swift Testing marks each failed expectation and each failed test with ✘; a crashed or
# killed test process leaves "Fatal error", "signal" or "error:" lines instead.
grep -aE '^✘ |Fatal error|Exited with (unexpected )?signal|^error: ' "$log" \
  | cut -c1-400 | awk '!seen[$0]++' | tail -n 40
case "$status" in
  124|137) echo "== The suite ran past its time limit and was stopped." ;;
esac
exit "$status"
