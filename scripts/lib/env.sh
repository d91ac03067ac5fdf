# shellcheck shell=bash
# Shared by the scripts: where the Python 3.14 toolchain lives and how to run a command in it.
#
# Two modes, chosen once by scripts/setup and remembered in $LINN_CACHE/mode:
#   native  - a python3.14 (>= 3.14.2) was found on PATH; venvs live in $LINN_CACHE/venvs.
#   rootfs  - a Debian testing root filesystem in $LINN_CACHE/rootfs provides Python 3.14;
#             venvs live inside it at /opt/venvs, and commands run through
#             `unshare --mount` + `chroot` with the repository bind-mounted at /repo.

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ "$(id -u)" = 0 ]; then
  LINN_CACHE="${LINN_CACHE:-/var/cache/linn-ha}"
else
  LINN_CACHE="${LINN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/linn-ha}"
fi
ROOTFS="$LINN_CACHE/rootfs"
MIN_PY="3.14.2"

die() { echo "error: $*" >&2; exit 1; }
log() { echo "==> $*" >&2; }

linn_mode() { cat "$LINN_CACHE/mode" 2>/dev/null || true; }

# Venv directory as seen by the command that runs in it.
linn_venv() {
  case "$(linn_mode)" in
    native) echo "$LINN_CACHE/venvs/$1" ;;
    rootfs) echo "/opt/venvs/$1" ;;
    *) die "toolchain not set up: run scripts/setup" ;;
  esac
}

# Repository root as seen by the command.
linn_repo() {
  case "$(linn_mode)" in
    rootfs) echo /repo ;;
    *) echo "$REPO_ROOT" ;;
  esac
}

# linn_run VENV CMD... : run CMD with VENV's bin first on PATH, from the repository root.
linn_run() {
  local venv="$1"; shift
  local vdir; vdir="$(linn_venv "$venv")"
  case "$(linn_mode)" in
    native)
      (cd "$REPO_ROOT" && PATH="$vdir/bin:$PATH" VIRTUAL_ENV="$vdir" "$@")
      ;;
    rootfs)
      # Private mount namespace: every mount below disappears when the command exits.
      unshare --mount --propagation private -- /bin/bash -c '
        set -e
        root="$1"; repo="$2"; vdir="$3"; shift 3
        mkdir -p "$root/repo"
        mount --bind "$repo" "$root/repo"
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        mount -t sysfs sys "$root/sys" 2>/dev/null || true
        cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
        exec chroot "$root" /usr/bin/env -u TMPDIR -u VIRTUAL_ENV -u PYTHONHOME \
          PATH="$vdir/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
          VIRTUAL_ENV="$vdir" HOME=/root LINN_IN_ROOTFS=1 \
          /bin/bash -c "cd /repo && exec \"\$@\"" linn-run "$@"
      ' linn-rootfs "$ROOTFS" "$REPO_ROOT" "$vdir" "$@"
      ;;
    *) die "toolchain not set up: run scripts/setup" ;;
  esac
}
