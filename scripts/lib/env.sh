# shellcheck shell=bash
# Shared by the scripts: where the Python 3.14 toolchain lives and how to run a command in it.
#
# Two places on disk:
#   LINN_BASE   the Python 3.14 base: in rootfs mode a Debian forky root filesystem, built once by
#               debootstrap and reused only while its recorded checksum still matches. It is
#               mounted read-only whenever a command runs in it, so nothing can install into it.
#   LINN_CACHE  everything else: the uv tool, the locked virtual environments, uv's download
#               cache, HOME for the tools. Throw-away: `LINN_CACHE=$(mktemp -d) scripts/test` is
#               a new machine (that is what .ci/run does).
#
# Two modes, chosen by scripts/setup and remembered in $LINN_CACHE/mode:
#   native  a python3.14 (>= 3.14.2) is on PATH; commands run directly.
#   rootfs  commands run in the base root filesystem through `unshare --mount` + `chroot`, with
#           the repository at /repo and $LINN_CACHE at /opt/linn (the mounts vanish with the
#           process).

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ "$(id -u)" = 0 ]; then
  LINN_CACHE="${LINN_CACHE:-/var/cache/linn-ha}"
  LINN_BASE="${LINN_BASE:-/var/cache/linn-ha-base}"
else
  LINN_CACHE="${LINN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/linn-ha}"
  LINN_BASE="${LINN_BASE:-${XDG_CACHE_HOME:-$HOME/.cache}/linn-ha-base}"
fi
LINN_CACHE="$(mkdir -p "$LINN_CACHE" && cd "$LINN_CACHE" && pwd)"
INNER_CACHE=/opt/linn # where $LINN_CACHE appears inside the root filesystem

die() { echo "error: $*" >&2; exit 1; }
log() { echo "==> $*" >&2; }

linn_mode() { cat "$LINN_CACHE/mode" 2>/dev/null || true; }
linn_rootfs() { cat "$LINN_CACHE/base-path" 2>/dev/null || die "toolchain not set up: run scripts/setup"; }

# $LINN_CACHE as the command sees it.
linn_cache_inner() {
  case "$(linn_mode)" in
    native) echo "$LINN_CACHE" ;;
    rootfs) echo "$INNER_CACHE" ;;
    *) die "toolchain not set up: run scripts/setup" ;;
  esac
}

# The Python 3.14 the venvs are made from, as the command sees it.
python_for_venvs() {
  case "$(linn_mode)" in
    native) command -v python3.14 ;;
    rootfs) echo /usr/bin/python3.14 ;;
  esac
}

# Venv directory as seen by the command that runs in it.
linn_venv() { echo "$(linn_cache_inner)/venvs/$1"; }

# Repository root as seen by the command.
linn_repo() {
  case "$(linn_mode)" in
    rootfs) echo /repo ;;
    *) echo "$REPO_ROOT" ;;
  esac
}

# linn_run VENV CMD... : run CMD with VENV's bin first on PATH, from the repository root.
# VENV "-" runs CMD with no venv (used to build the venvs).
linn_run() {
  local venv="$1"; shift
  local cache vpath="" venv_env=()
  cache="$(linn_cache_inner)"
  if [ "$venv" != - ]; then
    vpath="$(linn_venv "$venv")/bin:"
    venv_env=(VIRTUAL_ENV="$(linn_venv "$venv")")
  fi
  local pass_env=() name
  # Only the variables a test run may depend on cross into the root filesystem.
  for name in $(compgen -e); do
    case "$name" in
      LINN_CACHE|LINN_BASE) ;;
      LINN_*|PYTEST_*|HYPOTHESIS_*|ANTHROPIC_*|CI|TERM|COLUMNS|NO_COLOR|FORCE_COLOR)
        pass_env+=("$name=${!name}") ;;
    esac
  done
  local tool_env=(
    UV_CACHE_DIR="$cache/uv-cache" UV_PYTHON_DOWNLOADS=never UV_NO_CONFIG=1
    PLATFORMIO_CORE_DIR="$cache/platformio" PIP_DISABLE_PIP_VERSION_CHECK=1
  )
  case "$(linn_mode)" in
    native)
      (cd "$REPO_ROOT" && env -u PIP_FIND_LINKS -u VIRTUAL_ENV "${tool_env[@]}" "${venv_env[@]}" \
        PATH="$vpath$cache/tools/bin:$PATH" "$@")
      ;;
    rootfs)
      # Private mount namespace: every mount below disappears when the command exits. The root
      # filesystem itself is read-only; only the repository, $LINN_CACHE and scratch are writable.
      mkdir -p "$LINN_CACHE/home"
      unshare --mount --propagation private -- /bin/bash -c '
        set -e
        root="$1"; repo="$2"; cache="$3"; shift 3
        mount --bind "$root" "$root"
        mount -o remount,bind,ro "$root"
        mount --bind "$repo" "$root/repo"
        mount --bind "$cache" "$root/opt/linn"
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        mount -t sysfs sys "$root/sys" 2>/dev/null || true
        mount -t tmpfs tmpfs "$root/tmp"
        mount -t tmpfs tmpfs "$root/var/tmp"
        for f in /etc/resolv.conf /etc/hosts /etc/ssl/certs/ca-certificates.crt; do
          [ -f "$f" ] && mount --bind -o ro "$f" "$root$f"
        done
        exec chroot "$root" /usr/bin/env -i "$@"
      ' linn-rootfs "$(linn_rootfs)" "$REPO_ROOT" "$LINN_CACHE" \
        HOME="$INNER_CACHE/home" LANG=C.UTF-8 LINN_IN_ROOTFS=1 \
        SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
        REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt UV_NATIVE_TLS=1 \
        "${pass_env[@]}" "${tool_env[@]}" "${venv_env[@]}" \
        PATH="$vpath$INNER_CACHE/tools/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        /bin/bash -c 'cd /repo && exec "$@"' linn-run "$@"
      ;;
    *) die "toolchain not set up: run scripts/setup" ;;
  esac
}
