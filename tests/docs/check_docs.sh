#!/usr/bin/env bash
# The repository stands on its own (issue 17), checked in three ways:
#   1. no file of the source tree points outside it: to the design notes, reference
#      notes or seed texts that a clone does not have;
#   2. every relative Markdown link (inline [text](path) or reference [id]: path) in a
#      *.md file resolves to a file or folder of the tree;
#   3. the README, netlists/README.md and .ci/quickstart name the same default example.
# Usage: check_docs.sh SOURCE_DIR [BINARY_DIR]. BINARY_DIR (a build tree, possibly
# inside the source tree) is left out of the scan. Exit 0: all good; 1: the problems
# are listed on stderr.
set -euo pipefail

src=$(cd "${1:?usage: check_docs.sh SOURCE_DIR [BINARY_DIR]}" && pwd -P)
bin=""
if [ -n "${2:-}" ] && [ -d "$2" ]; then bin=$(cd "$2" && pwd -P); fi
cd "$src"

problems=0
default=""
fail() { echo "check_docs: $*" >&2; problems=$((problems + 1)); }

# The files of the tree, relative to it: git's view (tracked, plus new files not
# ignored) in a checkout, else every file outside .git and the build trees.
files=()
if command -v git >/dev/null 2>&1 &&
   [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null || true)" = "$src" ]; then
  while IFS= read -r -d '' f; do
    [ -f "$f" ] && files+=("$f")
  done < <(git -C "$src" ls-files -z --cached --others --exclude-standard)
else
  while IFS= read -r -d '' f; do
    files+=("${f#./}")
  done < <(find . \( -name .git -o -path './build*' -o -path './results*' -o -path './out' \) -prune \
                -o -type f -print0)
  if [ -n "$bin" ]; then  # drop the build tree when it lies inside the source tree
    kept=()
    for f in "${files[@]}"; do
      case "$src/$f" in "$bin"/*) ;; *) kept+=("$f") ;; esac
    done
    files=("${kept[@]}")
  fi
fi
[ ${#files[@]} -gt 0 ] || { echo "check_docs: no files found under $src" >&2; exit 1; }

# ---------------------------------------------------------------- 1. outside pointers
# The patterns are spelled in pieces so that this script does not match itself.
outside=(
  '\.\./'"shared"
  "shared"'/DESIGN'
  "shared"'/reference'
  "shared"'/seeds'
  "DESIGN"'\.md'
  "STYLE"'\.md'
)
grep_args=()
for pat in "${outside[@]}"; do grep_args+=(-e "$pat"); done
while IFS= read -r hit; do
  fail "points outside the repository: $hit"
done < <(printf '%s\0' "${files[@]}" | xargs -0 grep -I -H -n -E "${grep_args[@]}" -- 2>/dev/null || true)

# ---------------------------------------------------------------- 2. Markdown links
# Prints "line<TAB>target" for each link outside fenced code blocks and inline code.
md_links() {
  awk '
    /^[ \t]*(```|~~~)/ { fence = !fence; next }
    fence { next }
    {
      line = $0
      gsub(/`[^`]*`/, "", line)                       # inline code is not a link
      if (match(line, /^[ \t]*\[[^]]+\]:[ \t]*[^ \t]+/)) {   # [id]: target
        t = substr(line, RSTART, RLENGTH); sub(/^[^]]*\]:[ \t]*/, "", t)
        print NR "\t" t
      }
      while (match(line, /\]\([^)]*\)/)) {             # [text](target "title")
        t = substr(line, RSTART + 2, RLENGTH - 3)
        line = substr(line, RSTART + RLENGTH)
        sub(/^[ \t]+/, "", t); sub(/[ \t].*$/, "", t)    # drop an optional title
        sub(/^</, "", t); sub(/>$/, "", t)
        print NR "\t" t
      }
    }' "$1"
}
# The path p (relative to the tree) with "." and ".." resolved as text; empty when it
# climbs out of the tree. Pure bash: no process per link.
normalize() {
  local IFS=/ part out=()
  for part in $1; do
    case "$part" in
      ''|.) ;;
      ..) [ ${#out[@]} -gt 0 ] || { REPLY=""; return; }; unset 'out[${#out[@]}-1]' ;;
      *) out+=("$part") ;;
    esac
  done
  REPLY="${out[*]}"
  [ -n "$REPLY" ] || REPLY=.
}
for f in "${files[@]}"; do
  case "$f" in *.md) ;; *) continue ;; esac
  case "$f" in */*) dir=${f%/*} ;; *) dir=. ;; esac
  while IFS=$'\t' read -r line target; do
    case "$target" in
      ''|'#'*|http://*|https://*|mailto:*|ftp://*) continue ;;
    esac
    path=${target%%#*}
    path=${path%%\?*}
    [ -n "$path" ] || continue
    case "$path" in
      /*) normalize "$path" ;;          # GitHub reads a leading / as the repository root
      *) normalize "$dir/$path" ;;
    esac
    if [ -z "$REPLY" ]; then
      fail "$f:$line: link leaves the repository ($target)"
    elif [ ! -e "$REPLY" ]; then
      fail "$f:$line: broken link ($target)"
    fi
  done < <(md_links "$f")
done

# ---------------------------------------------------------------- 3. one default example
# .ci/quickstart runs it; README.md and netlists/README.md each name it on a line that
# says "default example", no such line names another netlist, and the README gives the
# quickstart's output folder.
if [ -f .ci/quickstart ]; then
  mapfile -t runs < <(grep -oE 'jourdain run netlists/[A-Za-z0-9_.-]+\.json' .ci/quickstart || true)
  if [ ${#runs[@]} -ne 1 ]; then
    fail ".ci/quickstart: expected one 'jourdain run netlists/<name>.json', found ${#runs[@]}"
  else
    default=${runs[0]##*/}
    for doc in README.md netlists/README.md; do
      if [ ! -f "$doc" ]; then fail "$doc is missing"; continue; fi
      mapfile -t said < <(grep -n -i 'default example' "$doc" || true)
      named_it=0
      for l in "${said[@]}"; do
        named=$(grep -oE '[A-Za-z0-9_.-]+\.json' <<<"$l" | sort -u || true)
        if [ "$named" = "$default" ]; then
          named_it=1
        elif [ -n "$named" ]; then
          fail "$doc:${l%%:*}: names $(tr '\n' ' ' <<<"$named")as the default example; .ci/quickstart runs $default"
        fi
      done
      [ "$named_it" -eq 1 ] ||
        fail "$doc: no line names $default as the default example (.ci/quickstart runs it)"
    done
    outdir=$(grep -oE ' -o [^ ]+' .ci/quickstart | head -n 1 | sed 's/^ -o //')
    if [ -n "$outdir" ]; then
      grep -q -F "\`$outdir/\`" README.md ||
        fail "README.md does not give the default example's results folder \`$outdir/\` (.ci/quickstart writes there)"
    fi
  fi
else
  fail ".ci/quickstart is missing"
fi

if [ "$problems" -gt 0 ]; then
  echo "check_docs: $problems problem(s) in $src" >&2
  exit 1
fi
echo "check_docs: ${#files[@]} files, no pointer outside the repository, every Markdown link resolves, default example $default"
