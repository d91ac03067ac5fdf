# shellcheck shell=bash
# Background services that must not outlive the script that started them (Home Assistant, the
# emulator, the stand-in): each runs in its own process group, so stopping it ends its whole tree
# (in rootfs mode: unshare, chroot and the tool itself).
#
#   start_group CMD... >LOG 2>&1   start CMD in the background, in a new process group
#   stop_groups [FIRST...]         TERM every group (FIRST ones first), wait until each is gone
#   STARTED_GROUPS                 the group ids, in start order

STARTED_GROUPS=()

start_group() {
  set -m # job control: a background job gets its own process group
  "$@" &
  STARTED_GROUPS+=($!)
  set +m
}

# All at once (each takes a second or two to end, mostly tearing down its rootfs mounts), then
# until every group is gone: Home Assistant writes its storage while it shuts down. KILL after
# STOP_SECONDS (default 30). The groups given (FIRST) go that way, and are gone, before the
# rest: a client before the services it uses (Home Assistant before the emulator, which it would
# otherwise see vanish, warning that the streamer is unavailable).
# Writes nothing: it also runs when the script's output has gone (a closed pipe or terminal).
stop_groups() {
  local pgid first=" $* " rest=()
  for pgid in "${STARTED_GROUPS[@]}"; do
    [[ "$first" == *" $pgid "* ]] || rest+=("$pgid")
  done
  if [ "$#" -gt 0 ]; then _stop_these "$@"; fi
  if [ "${#rest[@]}" -gt 0 ]; then _stop_these "${rest[@]}"; fi
  wait 2>/dev/null || true # reap them (always status 0 without arguments)
  STARTED_GROUPS=()
}

_stop_these() { # _stop_these PGID...: TERM them all, then wait for each (KILL when it lingers)
  local pgid _
  for pgid in "$@"; do kill -TERM -- "-$pgid" 2>/dev/null || true; done
  for pgid in "$@"; do
    for _ in $(seq "$(( ${STOP_SECONDS:-30} * 10 ))"); do
      kill -0 -- "-$pgid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL -- "-$pgid" 2>/dev/null || true
  done
}
