#!/usr/bin/env bash
# test_docs_options.sh — the guide names only options that exist: every -option written in README.md and
# docs/*.md is listed by some program's -help (the drivers, the tools, and a driver's help with every
# formulation and solver chosen, which lists all their options), or is one of the few names the text means
# as PETSc's own, as a prefix, or as a name that no longer exists (said so where it appears). A renamed
# option that the guide still shows fails here.
set -u
. "$(dirname "$0")/../lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in "$CB_BIN"/bench_* "$CB_BIN"/cpsolve "$CB_BIN"/ah_pyramid; do "$p" -help >>"$tmp/help" 2>&1; done
"$CB_BIN/bench_step" -formulation all -cp_solver all -help >>"$tmp/help" 2>&1
# not ours to list: PETSc's runtime and options-file words, prefixes the text names, removed names it names
# as removed (with what replaced them), a misspelling shown as such, and the placeholder -name
allowed=" -log_view -malloc_debug -info -options_file_yaml -prefix_push -prefix_pop -skip_petscrc -name
  -detection -delta_max -formulaton "
grep -ohE '(^|[ `(])-[a-z][a-z0-9_]+' "$root/README.md" "$root"/docs/*.md | sed 's/^[ `(]//' | sort -u >"$tmp/named"
n=$(wc -l <"$tmp/named")
missing=
while read -r o; do
  case "$o" in *_) continue ;; esac # a prefix: -lemke_..., -prox_newton_...
  grep -qE -- "(^|[^a-z_])$o([^a-z0-9_]|$)" "$tmp/help" && continue
  case "$allowed" in *" $o "* | *" $o"$'\n'*) continue ;; esac
  missing="$missing $o"
done <"$tmp/named"
check "every option the guide names ($n) is one some program's -help lists${missing:+ (not:$missing)}" \
  '[ -z "$missing" ] && [ "$n" -ge 100 ]'
