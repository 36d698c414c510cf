#!/bin/sh
# Readiness probe of the Flux runner: connected to the TBON (lib/scripts/templates/flux-ready.sh).
cluster_name=@@CLUSTER_NAME@@
port_hex=@@PORT_HEX@@
lead_children=@@LEAD_CHILDREN@@
local_socket=@@LOCAL_SOCKET@@
hostname_file=${FLUX_READY_HOSTNAME_FILE:-/proc/sys/kernel/hostname}

read -r host < "$hostname_file" || true
rank=${host#"$cluster_name"-}
case $rank in
  '' | *[!0-9]*) rank=${JOB_COMPLETION_INDEX:-} ;;
esac
case $rank in
  '' | *[!0-9]*) exit 1 ;;
esac

if [ "$rank" -eq 0 ] && [ ! -S "$local_socket" ]; then
  exit 1
fi
# sl local rem st(01: ESTABLISHED) ...; tcp6 only if tcp was not enough (a read walks all TCP).
count=0
for table in /proc/net/tcp /proc/net/tcp6; do
  [ -r "$table" ] || continue
  while read -r _ local remote state _; do
    [ "$state" = 01 ] || continue
    if [ "$rank" -eq 0 ]; then
      case $local in *":$port_hex") count=$((count + 1)) ;; esac
    else
      case $remote in *":$port_hex") exit 0 ;; esac
    fi
  done < "$table"
  if [ "$rank" -eq 0 ] && [ "$count" -ge "$lead_children" ]; then
    exit 0
  fi
done
exit 1
