#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks the repository's references to its own documentation. Fails (exit 1), naming
# file:line, when a file of the repository (git ls-files, plus untracked files git does not
# ignore; every file outside a git checkout):
#   - mentions the path to the workspace's shared folder (documents outside the repository);
#   - cites "spec section", "spec §", "spec <N.N>", directml-ops.md or "design.md section" (the old
#     external documents: cite docs/semantics.md#<anchor> or docs/design.md#<anchor> instead, or
#     state the fact);
#   - cites docs/<file>.md#<anchor> where docs/<file>.md does not exist or has no heading whose
#     GitHub slug is <anchor>, or names a docs/<file>.md that does not exist;
#   - (Markdown files) links a relative target that does not exist, or an #anchor that the
#     target Markdown file does not have.
# Slugs follow GitHub: lowercase; characters other than letters, digits, spaces, '-' and '_'
# dropped; spaces become '-'; a repeated slug gets -1, -2, ...
# Needs only bash, git, grep, awk, sed (a fresh Debian 12). Run by scripts/run_tests.sh.
#   scripts/check_docs.sh          check everything
#   scripts/check_docs.sh FILE...  check only these files (anchors are still read everywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C

self=scripts/check_docs.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every file of the repository that exists in the working tree.
# Outside a git checkout (an exported tree), every file but build outputs and caches.
list_files() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files; git ls-files --others --exclude-standard
  else
    find . -type f ! -path './.git/*' ! -path './build/*' ! -path './.cache/*' | sed 's|^\./||'
  fi
}
list_files | sort -u | while IFS= read -r f; do
  [[ -f "$f" ]] && printf '%s\n' "$f"
done > "$tmp/all"
if [[ $# -gt 0 ]]; then printf '%s\n' "$@" > "$tmp/files"; else cp "$tmp/all" "$tmp/files"; fi

# "path<TAB>slug" for every heading of every Markdown file (fenced code blocks skipped).
grep -E '\.md$' "$tmp/all" > "$tmp/md" || true
: > "$tmp/anchors"
while IFS= read -r md; do
  awk -v file="$md" '
    /^[ ]*(```|~~~)/ { fence = !fence; next }
    fence { next }
    /^#+[ \t]/ {
      h = $0
      sub(/^#+[ \t]+/, "", h); sub(/[ \t]+#+[ \t]*$/, "", h); sub(/[ \t]+$/, "", h)
      h = tolower(h); out = ""
      for (i = 1; i <= length(h); i++) {
        c = substr(h, i, 1)
        if (c ~ /[a-z0-9_ -]/) out = out c
      }
      gsub(/ /, "-", out)
      n = seen[out]++
      if (n > 0) out = out "-" n
      print file "\t" out
    }' "$md" >> "$tmp/anchors"
done < "$tmp/md"

failures=0
report() {  # file line message
  echo "$1:$2: $3"
  failures=$((failures + 1))
}

# has_anchor PATH SLUG
has_anchor() { grep -qxF "$1"$'\t'"$2" "$tmp/anchors"; }

# normalize PATH: resolves "." and ".." components of a relative path.
normalize() {
  local IFS=/ part out=()
  for part in $1; do
    case "$part" in
      ''|.) ;;
      ..) if [[ ${#out[@]} -gt 0 ]]; then unset 'out[${#out[@]}-1]'; else out+=(..); fi ;;
      *) out+=("$part") ;;
    esac
  done
  (IFS=/; echo "${out[*]}")
}

while IFS= read -r f; do
  [[ -f "$f" ]] || continue
  grep -Iq . "$f" 2>/dev/null || continue   # binary or empty

  if [[ "$f" != "$self" ]]; then
    while IFS=: read -r line _; do
      report "$f" "$line" "refers to the shared folder beside the checkout (outside the repository)"
    done < <(grep -nE '[.][.]/shared' "$f" || true)
    while IFS=: read -r line text; do
      report "$f" "$line" "cites the old spec or design notes: $(sed -E 's/^[[:space:]]+//' <<<"$text" | cut -c1-100)"
    done < <(grep -niE 'spec (section|§)|\bspec [0-9]+(\.[0-9]+)*\b|directml-ops\.md|design\.md section' "$f" ||
             true)
  fi

  # docs/<file>.md[#anchor] anywhere in the file.
  while IFS=: read -r line ref; do
    path=${ref%%#*}
    anchor=""
    [[ "$ref" == *#* ]] && anchor=${ref#*#}
    # A path that ends inside a longer one (e.g. lib/docs/x.md) is not ours.
    if [[ ! -f "$path" ]]; then
      report "$f" "$line" "$path does not exist"
    elif [[ -n "$anchor" ]] && ! has_anchor "$path" "$anchor"; then
      report "$f" "$line" "$path has no heading with the anchor #$anchor"
    fi
  done < <(grep -noE '(^|[^A-Za-z0-9_./-])docs/[A-Za-z0-9_./-]+\.md(#[A-Za-z0-9_-]+)?' "$f" |
           sed -E 's/^([0-9]+):[^d]*/\1:/' || true)

  # Markdown links: [text](target) with a relative target.
  if [[ "$f" == *.md ]]; then
    dir=$(dirname "$f")
    while IFS=: read -r line link; do
      target=${link#](}
      target=${target%)}
      target=${target%% *}  # drop a title: (path "title")
      case "$target" in
        http:*|https:*|mailto:*|'') continue ;;
      esac
      path=${target%%#*}
      anchor=""
      [[ "$target" == *#* ]] && anchor=${target#*#}
      if [[ -z "$path" ]]; then
        resolved="$f"
      elif [[ "$dir" == . ]]; then
        resolved=$(normalize "$path")
      else
        resolved=$(normalize "$dir/$path")
      fi
      if [[ ! -e "$resolved" ]]; then
        report "$f" "$line" "link target $target does not exist ($resolved)"
      elif [[ -n "$anchor" && "$resolved" == *.md ]] && ! has_anchor "$resolved" "$anchor"; then
        report "$f" "$line" "link target $target: $resolved has no heading with the anchor #$anchor"
      fi
    done < <(awk '/^[ ]*(```|~~~)/ { fence = !fence; next } !fence { print NR ":" $0 }' "$f" |
             grep -oE '^[0-9]+:|\]\([^)[:space:]]+( "[^"]*")?\)' |
             awk '/^[0-9]+:$/ { n = $0; next } { print n $0 }' || true)
  fi
done < "$tmp/files"

if [[ $failures -gt 0 ]]; then
  echo "check_docs.sh: $failures dangling or outdated reference(s)" >&2
  exit 1
fi
echo "check_docs.sh: references OK ($(wc -l < "$tmp/files") files, $(wc -l < "$tmp/anchors") headings)"
