# --- Helpers shared by the MiniCluster scripts (templates/common.sh) ---

#@@INCLUDE messages.sh@@

# Runs a user snippet from the container's `commands` in this shell, as the Flux Operator inlined
# them, so that a snippet can export variables for Flux. Its status (that of its last command, or
# the first failing one in strict mode, which ends the script) is left in hook_status, and a failure
# is reported: a snippet that fails is never silent.
hook_status=0
run_hook() {
  hook_status=0
  if [ -n "$2" ]; then
    say "running commands.$1"
    eval "$2"
    hook_status=$?
    if [ "$hook_status" -ne 0 ]; then
      printf '%s: error: commands.%s failed with exit code %s\n' "$script_name" "$1" "$hook_status" >&2
    fi
  fi
}

# A short pause between two checks of something another container writes: a tenth of a second.
# A timed read on a pipe nobody writes to, not a sleep process: 128 pods polling with `sleep 0.1`
# spawned over a thousand processes a second on a node. Else sleep, for fractions where it takes
# them (GNU coreutils, busybox), or a second.
nap_fd=''
nap() {
  if [ -z "$nap_fd" ]; then
    # (braces: a redirection of exec itself would stay on the shell for good)
    { exec {nap_fd}<> <(:); } 2>/dev/null || nap_fd=none
  fi
  if [ "$nap_fd" != none ]; then
    read -r -t 0.1 -u "$nap_fd" _ 2>/dev/null || true
    return 0
  fi
  sleep 0.1 2>/dev/null || sleep 1
}

# Sleeps $1 seconds in the background, so that a signal's trap runs at once, not after the sleep
# (the sleep keeps no output open, so an exit from the trap closes the container's streams).
pause() {
  sleep "$1" > /dev/null 2>&1 &
  wait "$!" || true
}

# Waits until path $1 exists, for at most $2 seconds; returns 1 on timeout.
wait_for_file() {
  local deadline=$((SECONDS + $2))
  until [ -e "$1" ]; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      return 1
    fi
    nap
  done
}

# Sets `seconds` to whole seconds from environment variable $1, or the default $2.
seconds_from_env() {
  seconds=${!1:-$2}
  if [[ ! $seconds =~ ^[0-9]+$ ]]; then
    fail "$1 must be a whole number of seconds, got '$seconds'"
  fi
}
