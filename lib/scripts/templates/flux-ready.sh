#!/bin/sh
# Readiness probe of the Flux runner: connected to the TBON (lib/scripts/templates/flux-ready.sh).
cluster_name=@@CLUSTER_NAME@@
port_hex=@@PORT_HEX@@
lead_children=@@LEAD_CHILDREN@@
local_socket=@@LOCAL_SOCKET@@
hostname_file=${FLUX_READY_HOSTNAME_FILE:-/proc/sys/kernel/hostname}

host=''
read -r host < "$hostname_file" || true
rank=${host#"$cluster_name"-}
case $rank in
  '' | *[!0-9]*) rank=${JOB_COMPLETION_INDEX:-} ;;
esac
case $rank in
  '' | *[!0-9]*) exit 1 ;;
esac

# Columns: sl local_address rem_address st (01: ESTABLISHED) ...
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
done
if [ "$rank" -eq 0 ] && [ -S "$local_socket" ] && [ "$count" -ge "$lead_children" ]; then
  exit 0
fi
exit 1
