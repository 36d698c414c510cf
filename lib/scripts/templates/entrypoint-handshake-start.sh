# Entrypoint, phase 2 (handshake.inRunner only): the hosts handshake runs in this container, in the
# background, with node from the handshake image mounted as an image volume. A native sidecar would
# be one more container in every pod for the kubelet and the runtime to start and stop.
#@@IF HANDSHAKE_IN_RUNNER@@
handshake_node_root=@@HANDSHAKE_NODE_ROOT@@
handshake_image=@@HANDSHAKE_IMAGE@@
handshake_args=( @@HANDSHAKE_ARGS@@ )
handshake_node=()

# Whether $1 resolves to a path inside the handshake image, then in `resolved` (the caller's): an
# absolute symlink in the image points into this container's own tree, whose C library and node are
# not the image's. A path below the root with no link on the way is itself, so readlink (a process;
# nine a pod when every path took one) runs only for the others.
in_handshake_image() {
  local rest=${1#"$handshake_node_root"/} path=$handshake_node_root part
  if [ "$rest" != "$1" ]; then
    while [ -n "$path" ] && [ -n "$rest" ]; do
      part=${rest%%/*}
      if [ "$part" = "$rest" ]; then rest=''; else rest=${rest#*/}; fi
      case $part in '' | . | ..) path='' ;; *) path=$path/$part ;; esac
      if [ -n "$path" ] && [ -L "$path" ]; then path=''; fi
    done
    if [ -n "$path" ] && [ -e "$path" ]; then
      resolved=$path
      return 0
    fi
  fi
  resolved=$(readlink -f -- "$1" 2>/dev/null) || return 1
  [[ $resolved == "$handshake_node_root"/* ]]
}

# Sets `found` (the caller's) to the first of the files $@ inside the handshake image.
first_in_handshake_image() {
  local candidate resolved
  for candidate in "$@"; do
    if [ -f "$candidate" ] && in_handshake_image "$candidate"; then
      found=$candidate
      return 0
    fi
  done
  return 1
}

# Sets handshake_node to the command that runs the image's node through the image's own dynamic
# loader and libraries (musl or glibc), whatever C library this container's image has.
find_handshake_node() {
  local root=$handshake_node_root found loader node library_path='' seen=' ' dir resolved
  first_in_handshake_image "$root"/lib/ld-musl-*.so.1 "$root"/usr/lib/ld-musl-*.so.1 \
    "$root"/usr/lib/*-linux-gnu/ld-linux*.so.* "$root"/lib/*-linux-gnu/ld-linux*.so.* \
    "$root"/usr/lib64/ld-linux*.so.* "$root"/lib64/ld-linux*.so.* "$root"/lib/ld-linux*.so.* || return 1
  loader=$found
  first_in_handshake_image "$root"/usr/local/bin/node "$root"/usr/bin/node || return 1
  node=$found
  for dir in "$root"/lib "$root"/usr/lib "$root"/usr/local/lib "$root"/lib64 "$root"/usr/lib64 \
    "$root"/lib/*-linux-gnu "$root"/usr/lib/*-linux-gnu; do
    if [ -d "$dir" ] && in_handshake_image "$dir" && [[ $seen != *" $resolved "* ]]; then
      seen="$seen$resolved "
      library_path="${library_path:+$library_path:}$resolved"
    fi
  done
  handshake_node=("$loader" --library-path "$library_path" "$node")
}

# Runs the handshake until it has a result for good, and again after a crash or a kill (as the
# kubelet restarts a native sidecar), with a growing pause: a `failed` file, or an exit 0 (it saw
# this container's exit file), ends it. The broker wait below reads `failed`.
supervise_handshake() {
  local code restarts=0 pause=1
  while true; do
    code=0
    "${handshake_node[@]}" "${handshake_args[@]}" >&"$handshake_log_fd" 2>&1 || code=$?
    if [ "$code" -eq 0 ] || [ -e "$handshake_dir/failed" ]; then
      return 0
    fi
    restarts=$((restarts + 1))
    printf '%s: warning: %s\n' "$script_name" "the hosts handshake ended with exit code $code: starting it again in ${pause}s (restart $restarts)" >&2
    sleep "$pause"
    pause=$((pause < 16 ? pause * 2 : 30))
  done
}

# A file left by an earlier run of this container (restartPolicy OnFailure keeps the volume) would
# end the new handshake at once.
rm -f -- "$runner_exit_file" "$handshake_dir/failed" "$handshake_dir/ready" 2>/dev/null || true
# Its log (a JSON line per state change) goes to stderr, or with quiet logging to a file: stdout is
# the program's output (and this script's messages when not quiet).
handshake_log="$handshake_dir/handshake.log"
if [ "$quiet" = true ]; then
  exec {handshake_log_fd}>>"$handshake_log"
else
  exec {handshake_log_fd}>&2
fi
if find_handshake_node; then
  say "hosts handshake: node of $handshake_image (${handshake_node[-1]#"$handshake_node_root"})"
  supervise_handshake &
else
  # What a failed handshake leaves, so that the wait for it fails the Job with the handshake's code
  # for a bad configuration, naming the cause.
  printf 'HANDSHAKE_EXIT_CODE=%s\nHANDSHAKE_MESSAGE=%s\n' @@CONFIG_EXIT_CODE@@ \
    "the handshake image volume at $handshake_node_root ($handshake_image) has no node (usr/local/bin/node or usr/bin/node) with its dynamic loader (lib/ld-musl-*.so.1 or ld-linux*.so.*): an API server before 1.35 drops image volumes, a runtime without them mounts them empty (containerd before 2.1); otherwise handshake.image is not a Node.js image (18 or newer). Or set handshake.inRunner to false" \
    > "$handshake_dir/failed"
fi
#@@END HANDSHAKE_IN_RUNNER@@
