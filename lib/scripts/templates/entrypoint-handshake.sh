# Entrypoint, phase 4 (hosts handshake only): the rank's broker.toml from the parent's address,
# and the parent watch that restarts a worker broker when its parent's pod moved.
#@@IF HANDSHAKE@@
rank_config_dir="$config_root/rank-config"
# The parent address parent.env gave when the running broker started.
pinned_parent_file_ip=''
#@@IF RESOLVE_PARENT@@
# The parent the running broker connects to: its address (moved_parent_ip once the parent watch
# found the parent moved), Flux port and per-pod name.
pinned_parent_ip=''
pinned_parent_port=''
pinned_parent_fqdn=''
#@@END RESOLVE_PARENT@@
# Where the parent watch leaves its note for the restart loop, and what the loop took from it: use
# moved_parent_ip while parent.env still names moved_parent_file_ip.
parent_move_file="$rank_config_dir/parent-moved"
moved_parent_ip=''
moved_parent_file_ip=''

# An RFC 29 hostlist of ranks $1 to $2.
rank_range() {
  if [ "$1" -eq "$2" ]; then
    printf '%s-%s' "$cluster_name" "$1"
  else
    printf '%s-[%s-%s]' "$cluster_name" "$1" "$2"
  fi
}

# Copies the shared broker.toml to $2 with its hosts line replaced by $1; fails unless that line
# appears exactly once.
rewrite_hosts_line() {
  local line found=0
  while IFS= read -r line || [ -n "$line" ]; do
    if [ "$line" = "$hosts_line" ]; then
      line=$1
      found=$((found + 1))
    fi
    printf '%s\n' "$line"
  done < "$shared_config_dir/broker.toml" > "$2"
  if [ "$found" -ne 1 ]; then
    printf '%s: error: %s\n' "$script_name" "expected the line '$hosts_line' once in $shared_config_dir/broker.toml, found it $found times" >&2
    return 1
  fi
}

# Sets `value` (a local of the caller where a user's snippet could have exported one for Flux) to
# KEY's in a KEY=value file written by the handshake ($1 file, $2 key), else to '' and returns 1;
# never sourced, so a bad file cannot run code. (Set, not printed: a command substitution is a
# fork, five a worker and one each parent watch.)
env_file_value() {
  local line
  value=''
  while IFS= read -r line || [ -n "$line" ]; do
    if [ "${line%%=*}" = "$2" ]; then
      value=${line#*=}
      return 0
    fi
  done < "$1"
  return 1
}

# Writes this rank's broker.toml: the hosts entry is split around the TBON parent (ranks before it,
# the parent with an explicit connect URI, ranks after it), keeping rank order, from the parent
# address the hosts handshake wrote to parent.env.
write_rank_config() {
  local parent_file="$handshake_dir/parent.env" parent_rank parent_host parent_ip parent_port address entries=() joined entry value
  [ -r "$parent_file" ] || fail "cannot read $parent_file"
  env_file_value "$parent_file" FLUX_PARENT_RANK; parent_rank=$value
  env_file_value "$parent_file" FLUX_PARENT_HOST; parent_host=$value
  env_file_value "$parent_file" FLUX_PARENT_IP; parent_ip=$value
  env_file_value "$parent_file" FLUX_PARENT_PORT; parent_port=$value
  pinned_parent_file_ip=$parent_ip
  if [ -n "$moved_parent_ip" ] && [ "$parent_ip" = "$moved_parent_file_ip" ]; then
    parent_ip=$moved_parent_ip
  fi
  if [[ ! $parent_rank =~ ^[0-9]+$ ]] || [ "$parent_rank" -ge "$rank" ] || [ "$parent_host" != "$cluster_name-$parent_rank" ] ||
    [[ ! $parent_ip =~ ^[0-9A-Fa-f.:]+$ ]] || [[ ! $parent_port =~ ^[0-9]+$ ]] || [ "$parent_port" -lt 1 ] ||
    [ "$parent_port" -gt 65535 ]; then
    fail "$parent_file must name a rank below $rank with its IP and port, got rank '$parent_rank' host '$parent_host' ip '$parent_ip' port '$parent_port'"
  fi
#@@IF RESOLVE_PARENT@@
  pinned_parent_ip=$parent_ip
  pinned_parent_port=$parent_port
  env_file_value "$parent_file" FLUX_PARENT_FQDN || true
  pinned_parent_fqdn=$value
#@@END RESOLVE_PARENT@@
  address=$parent_ip
  if [[ $address == *:* ]]; then
    address="[$address]"
  fi
  if [ "$parent_rank" -gt 0 ]; then
    entries+=("{ host = \"$(rank_range 0 $((parent_rank - 1)))\" }")
  fi
  entries+=("{ host = \"$parent_host\", connect = \"tcp://$address:$parent_port\" }")
  if [ "$parent_rank" -lt "$last_rank" ]; then
    entries+=("{ host = \"$(rank_range $((parent_rank + 1)) "$last_rank")\" }")
  fi
  joined=''
  for entry in "${entries[@]}"; do
    joined="${joined:+$joined, }$entry"
  done
  say "TBON parent: rank $parent_rank ($parent_host) at $address:$parent_port"
  private_dir "$rank_config_dir" && replace_file 600 "$rank_config_dir/broker.toml" rewrite_hosts_line "hosts = [ $joined ]"
}

# Runs beside a worker broker $1, which retries its pinned parent address forever, even after the
# parent's pod was replaced by one with a new IP (flux-runtime.md section 5). Every
# parent_watch_seconds it checks whether the parent moved; if so it leaves a note for the restart
# loop and stops the broker, which restarts with the new address.
watch_parent() {
  local broker=$1 child=''
  # run_flux TERMs the watch once the broker exited. Bash runs a trap only between commands or
  # during `wait`, so each slow step runs in the background and is waited for: the watch ends at
  # once, not after a DNS lookup or a port check.
  trap 'if [ -n "$child" ]; then kill "$child" 2>/dev/null; fi; exit 0' TERM
  while true; do
    sleep "$parent_watch_seconds" &
    child=$!
    wait "$child" || true
    child=''
    # A handshake sidecar rewrites parent.env once it verified the parent's new address.
    env_file_value "$handshake_dir/parent.env" FLUX_PARENT_IP || true
    if [ -n "$value" ] && [ "$value" != "$pinned_parent_file_ip" ]; then
      say "parent.env names a new address for the TBON parent, $value: restarting the worker broker"
      stop_for_parent_move "$broker" ''
      return 0
    fi
#@@IF RESOLVE_PARENT@@
    (
      moved=$(moved_parent_address) || exit 1
      say "the TBON parent $pinned_parent_fqdn moved from $pinned_parent_ip to $moved: restarting the worker broker"
      stop_for_parent_move "$broker" "$moved"
    ) &
    child=$!
    if wait "$child"; then
      return 0
    fi
    child=''
#@@END RESOLVE_PARENT@@
  done
}
#@@IF RESOLVE_PARENT@@

# Init lifecycle, where no handshake runs any more to tell: prints the parent's new address when
# its per-pod name (long published, so no negative DNS cache is in the way) no longer resolves to
# the pinned address, the pinned address refuses the Flux port and the new one accepts it. Asks
# for the pinned address's family only (a dual-stack name answers IPv6 first, brokers listen on
# the pod IP), and for the absolute name (with ndots:5 a relative one tries 3 search domains first).
moved_parent_address() {
  local address answers=() database=ahostsv4
  if [ -z "$pinned_parent_fqdn" ]; then
    return 1
  fi
  if [[ $pinned_parent_ip == *:* ]]; then
    database=ahostsv6
  fi
  while read -r address _; do
    if [ "$address" = "$pinned_parent_ip" ]; then
      return 1
    fi
    if [[ $address =~ ^[0-9A-Fa-f.:]+$ ]]; then
      answers+=("$address")
    fi
  done < <(getent "$database" "$pinned_parent_fqdn." 2>/dev/null || true)
  if [ "${#answers[@]}" -eq 0 ] || flux_port_answers "$pinned_parent_ip" || ! flux_port_answers "${answers[0]}"; then
    return 1
  fi
  printf '%s' "${answers[0]}"
}

# Whether address $1 accepts a TCP connection on the parent's Flux port, within 2 seconds.
flux_port_answers() {
  # shellcheck disable=SC2016 # $1 and $2 belong to the inner bash
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/$2"' flux-port-check "$1" "$pinned_parent_port" 2>/dev/null
}
#@@END RESOLVE_PARENT@@

# Leaves the parent watch's note ("<parent.env address> <new address>"; without a new address the
# restart reads parent.env again), then stops broker $1: TERM, and KILL after 10 s, since a broker
# cut off from its parent may not finish its shutdown.
stop_for_parent_move() {
  local waited=0
  printf '%s %s\n' "$pinned_parent_file_ip" "$2" > "$parent_move_file"
  kill -s TERM "$1" 2>/dev/null || return 0
  while kill -0 "$1" 2>/dev/null; do
    if [ "$waited" -ge 10 ]; then
      kill -s KILL "$1" 2>/dev/null || true
      return 0
    fi
    sleep 1
    waited=$((waited + 1))
  done
}

# After a broker stopped: true if the parent watch stopped it, and then the next start connects to
# the parent's new address.
take_parent_move() {
  local from='' to=''
  if [ ! -e "$parent_move_file" ]; then
    return 1
  fi
  read -r from to < "$parent_move_file" || true
  rm -f -- "$parent_move_file"
  moved_parent_file_ip=$from
  moved_parent_ip=$to
}
#@@END HANDSHAKE@@
