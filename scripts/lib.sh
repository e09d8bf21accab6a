# Shared helpers for the project's scripts (sourced, not run).

# Prints a step banner with the command that reproduces it, runs it, and prints its wall
# time. With SPE_STEP_TIMES naming a file, an outermost step (not one run inside another
# step's script) appends "<seconds><TAB><command>" to it (scripts/test.sh's time table);
# with SPE_STEP_LANE set, the command is marked "[lane <name>]" there (a step that ran
# beside another lane's steps).
step() {
    echo
    echo "==> $*"
    local t0=$SECONDS rc=0 depth=${SPE_STEP_DEPTH:-0}
    SPE_STEP_DEPTH=$((depth + 1)) "$@" || rc=$?
    local dt=$((SECONDS - t0))
    echo "<== ${dt} s: $*"
    if [ -n "${SPE_STEP_TIMES:-}" ] && [ "$depth" = 0 ]; then
        printf '%s\t%s%s\n' "$dt" "${SPE_STEP_LANE:+[lane $SPE_STEP_LANE] }" "$*" >>"$SPE_STEP_TIMES"
    fi
    return "$rc"
}

# step_times FILE TOTAL: the steps of FILE, slowest first, with their share of TOTAL seconds.
step_times() {
    local file=$1 total=$2
    echo
    echo "==> step times (wall clock, slowest first; total ${total} s = $((total / 60)) min $((total % 60)) s)"
    sort -t$'\t' -k1,1nr "$file" | awk -F'\t' -v total="$total" '{
        printf "%6d s %5.1f %%  %s\n", $1, total ? 100 * $1 / total : 0, $2
    }'
    if grep -q $'\t\\[lane ' "$file"; then
        echo "(a step marked [lane B] ran at the same time as the unmarked ones: the steps add up to more than the total)"
    fi
}

# need PACKAGE COMMAND: installs Debian PACKAGE with apt-get when COMMAND is missing.
need() {
    local pkg=$1 cmd=$2
    if command -v "$cmd" >/dev/null 2>&1; then
        return 0
    fi
    echo "==> $cmd not found: installing Debian package $pkg"
    local sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    if [ -z "${SPE_APT_UPDATED:-}" ]; then
        $sudo apt-get update -qq
        export SPE_APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$pkg" >/dev/null
    command -v "$cmd" >/dev/null 2>&1 || { echo "error: installing $pkg did not provide $cmd" >&2; exit 1; }
}

# The workspace root, wherever the script is called from.
repo_root() {
    cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd
}

# pip_dep PACKAGE VERSION DIR: installs PACKAGE==VERSION from PyPI into DIR (project-local,
# pinned; not in git) unless it is there already. Use it with PYTHONPATH=DIR.
pip_dep() {
    local pkg=$1 version=$2 dir=$3
    local stamp="$dir/$(echo "$pkg" | tr - _)-$version.dist-info"
    [ -d "$stamp" ] && return 0
    echo "==> installing $pkg==$version into $dir"
    python3 -m pip install --quiet --upgrade --target "$dir" "$pkg==$version" 2>&1 \
        | grep -v -i "warning: running pip as\|dependency resolver\|requires .* but you have" || true
    [ -d "$stamp" ] || { echo "error: installing $pkg==$version failed" >&2; exit 1; }
}
