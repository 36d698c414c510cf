# Entrypoint, phase 2: settings read from the environment, the config paths, and the helpers every
# later phase uses (files written atomically, Flux run as a child that signals reach).
#@@IF TIMED@@
if [ ! -x /usr/bin/time ]; then
  fail "logging.timed needs /usr/bin/time in the application image"
fi
start_time=(/usr/bin/time -f 'FLUXTIME fluxstart wall time %E')
#@@END TIMED@@
#@@UNLESS TIMED@@
start_time=()
#@@END TIMED@@
#@@IF HANDSHAKE@@
seconds_from_env HANDSHAKE_WAIT_SECONDS @@HANDSHAKE_WAIT_SECONDS@@
handshake_wait_seconds=$seconds
seconds_from_env HANDSHAKE_PARENT_WATCH_SECONDS @@PARENT_WATCH_SECONDS@@
parent_watch_seconds=$seconds
if [ "$parent_watch_seconds" -lt 1 ]; then
  fail "HANDSHAKE_PARENT_WATCH_SECONDS must be at least 1, got '$parent_watch_seconds'"
fi
#@@END HANDSHAKE@@

config_root="$mount_path/config"
shared_config_dir="$config_root/etc/flux/config"
system_dir="$config_root/etc/flux/system"
certificate_file="$config_root/curve/curve.cert"
flux_view_file="$mount_path/flux-view.sh"
#@@IF JOB_DIR@@
job_dir="$config_root/job"
#@@END JOB_DIR@@

# A directory only this user can use.
# shellcheck disable=SC2174
private_dir() {
  if [ -d "$1" ]; then chmod 700 "$1"; else mkdir -p -m 700 "$1"; fi
}

# Atomically replaces file $2, with mode $1, by what the command in the remaining arguments writes
# to the path given as its last argument: a private temp file (mktemp makes it 0600) in the same
# directory, renamed at the end, so no reader sees a partial file and a restart rewrites it cleanly.
replace_file() {
  local mode=$1 target=$2 tmp
  shift 2
  tmp=$(mktemp "${target%/*}/.${target##*/}.XXXXXX") || return 1
  if "$@" "$tmp" && chmod "$mode" "$tmp" && mv -f -- "$tmp" "$target"; then
    return 0
  fi
  rm -f -- "$tmp"
  return 1
}

write_text() {
  printf '%s' "$1" > "$2"
}

encode_resources() {
  flux R encode --hosts="$hostlist" "${resource_encode_args[@]}" > "$1"
}

# Runs a Flux command as a child and waits for it, forwarding SIGTERM and SIGINT to it: bash as the
# container's PID 1 would otherwise ignore them, and a pod being deleted (or a worker being reaped
# by the Job once the lead succeeded) would wait for the grace period and SIGKILL. Without a Flux
# child, the signal ends the script at once: SIGTERM with stopped_exit_code, SIGINT with 130.
flux_pid=''
stopping=false
# The exit code of the signal that stopped the container, whatever Flux's own.
stop_code=0
stop_signal=''
#@@IF HANDSHAKE@@
# Whether run_flux runs the parent watch beside the broker (worker brokers with the hosts handshake).
watch_parent_moves=false
#@@END HANDSHAKE@@
on_signal() {
  stopping=true
  stop_signal=$1
  stop_code=$2
  if [ -z "$flux_pid" ]; then
    exit "$2"
  fi
  kill -s "$1" "$flux_pid" 2>/dev/null || true
}
trap 'on_signal TERM "$stopped_exit_code"' TERM
trap 'on_signal INT 130' INT
run_flux() {
  local status watcher=''
  # Without job control a background command reads /dev/null: keep the container's stdin.
  # env keeps SHLVL at this shell's level: bash lowers it for a background command, and at SHLVL < 2
  # every bash that Flux starts with its stdin on a socket (rc scripts, jobs) reads ~/.bashrc as an
  # rsh session (Debian's SSH_SOURCE_BASHRC), which with conda or pyenv init doubled the time of
  # Flux's own commands (docs/e2e.md).
  env SHLVL="$SHLVL" "$@" <&0 &
  flux_pid=$!
  local started=$SECONDS resent=false
#@@IF HANDSHAKE@@
  if [ "$watch_parent_moves" = true ]; then
    watch_parent "$flux_pid" &
    watcher=$!
  fi
#@@END HANDSHAKE@@
  while true; do
    status=0
    wait "$flux_pid" || status=$?
    # A trapped signal ends the wait early; wait again until the child has really exited.
    if ! kill -0 "$flux_pid" 2>/dev/null; then
      break
    fi
    # A broker ignores signals while it loads its builtin modules, its first milliseconds
    # ("ignored signal 15 in load-builtins"): a pod evicted then waited out its grace period.
    # A young broker is told once more, a second later.
    if [ "$stopping" = true ] && [ "$resent" = false ] && [ $((SECONDS - started)) -le 2 ]; then
      resent=true
      pause 1
      kill -s "$stop_signal" "$flux_pid" 2>/dev/null || true
    fi
  done
  flux_pid=''
  if [ -n "$watcher" ]; then
    kill "$watcher" 2>/dev/null || true
    wait "$watcher" 2>/dev/null || true
  fi
  return "$status"
}

# Splits command line $2 into words the way the shell does (quotes, $VARIABLES, globs), into the
# array named $1: the user's command runs as it would at a prompt, as the Flux Operator ran it.
split_words() {
  eval "$1=(
$2
)"
}
