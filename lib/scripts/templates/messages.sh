# --- Messages of the MiniCluster scripts (templates/messages.sh) ---

# A progress message, unless logging is quiet (quiet never hides the job's own output).
say() {
  if [ "$quiet" != true ]; then
    printf '%s: %s\n' "$script_name" "$*"
  fi
}

# An error message, always shown, and the end of the script.
fail() {
  printf '%s: error: %s\n' "$script_name" "$*" >&2
  exit 1
}
