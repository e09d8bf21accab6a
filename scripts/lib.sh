# Shared helpers for the project's scripts (sourced, not run).

# Prints a step banner with the command that reproduces it, then runs it.
step() {
    echo
    echo "==> $*"
    "$@"
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
