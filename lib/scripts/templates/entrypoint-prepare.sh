# Entrypoint, phase 3: this pod's rank, HOME, the Flux view, the user's script, the CURVE
# certificate and R: everything a broker needs before it starts.
#@@IF VIEW_IMAGE_VOLUME@@
#@@IF VIEW_CHECK_IN_RUNNER@@
# First the view image volume: an API server that dropped it (ImageVolume gate off) or a runtime that
# mounted it empty leaves this container without Flux. The check names the cause and exits with the
# code on which the Job's podFailurePolicy fails the Job; here rather than in an init container, so
# that each pod starts one container fewer.
/bin/sh "$view_check_script" || exit
#@@END VIEW_CHECK_IN_RUNNER@@
# With the view as an image volume the pod has no flux view init container copying it: the runner
# writes the config and links the view itself, first, as that container would have.
bash "$init_script" || exit
#@@END VIEW_IMAGE_VOLUME@@
run_hook init "$hook_init"

# --- Who am I: hostnames are <cluster>-<index> (the Indexed Job's pod hostnames), which is also how
# each broker finds its rank in broker.toml; JOB_COMPLETION_INDEX is the fallback.
host=$(hostname 2>/dev/null || uname -n)
rank=${host#"$cluster_name"-}
if [[ $host == "$rank" || ! $rank =~ ^[0-9]+$ ]]; then
  rank=${JOB_COMPLETION_INDEX:-}
  if [[ ! $rank =~ ^[0-9]+$ ]]; then
    fail "hostname '$host' is not $cluster_name-<index> and JOB_COMPLETION_INDEX is not set"
  fi
  say "hostname '$host' does not name a rank: using JOB_COMPLETION_INDEX=$rank"
fi
rank=$((10#$rank))
say "rank $rank on $host, running as uid $EUID"

# Flux and the user's tools need a writable HOME; with some images and users it is / or read-only.
if [ -z "${HOME:-}" ] || [ "$HOME" = / ] || [ ! -w "$HOME" ]; then
  HOME="$mount_path/home-$EUID"
  export HOME
  private_dir "$HOME" || fail "cannot create $HOME"
  say "HOME is not usable: using $HOME"
fi

#@@UNLESS VIEW_DISABLED@@
# --- The Flux view: its symlinks and RPATHs point into /opt/software, the volume the init container
# copied the install tree into. FLUX_OPT_DIR replaces /opt for tests only.
software_dir="${FLUX_OPT_DIR:-/opt}/software"
if [ -z "$(ls -A "$software_dir" 2>/dev/null)" ]; then
  fail "$software_dir is empty: the flux view init container copies the Flux install tree into the volume mounted there"
fi
#@@END VIEW_DISABLED@@
# flux-view.sh is written last: sidecars wait for it, so it also says the view is ready.
replace_file 755 "$mount_path/flux-connect.sh" write_text "$flux_connect_script" || fail "cannot write $mount_path/flux-connect.sh"
replace_file 644 "$flux_view_file" write_text "$flux_view_script" || fail "cannot write $flux_view_file"
# shellcheck source=/dev/null # written just above from the rendered templates/flux-view.sh
. "$flux_view_file"
#@@UNLESS SIMPLE_SCHEDULER@@
#@@UNLESS VIEW_DISABLED@@
# The view's rc1 loads Fluxion instead of sched-simple.
export FLUX_RC_EXTRA="$mount_path/view/etc/flux/rc1.d"
#@@END VIEW_DISABLED@@
#@@END SIMPLE_SCHEDULER@@

#@@IF SCRIPT@@
# The user's script, at the same private path on every rank, since its tasks may run on any rank.
job_script_file="$job_dir/script.sh"
private_dir "$job_dir" || fail "cannot create $job_dir"
replace_file 700 "$job_script_file" write_text "$job_script" || fail "cannot write $job_script_file"
#@@END SCRIPT@@

# --- The CURVE certificate: Flux refuses one readable by group or others, and the mounted copy is
# read-only and may be group-readable (fsGroup). Copy it to a private file; never print it.
if [ ! -r "$certificate_source" ]; then
  fail "the CURVE certificate $certificate_source is missing or unreadable"
fi
if ! (umask 077 && private_dir "${certificate_file%/*}" && replace_file 600 "$certificate_file" cp -- "$certificate_source"); then
  fail "cannot copy the CURVE certificate to $certificate_file"
fi

# --- R, the resources of every host of the cluster.
if ! command -v flux > /dev/null; then
  fail "flux is not on PATH ($PATH): without the flux view, the application image must bring Flux"
fi
say "writing $system_dir/R for $hostlist"
mkdir -p "$system_dir" || fail "cannot create $system_dir"
replace_file 644 "$system_dir/R" encode_resources || fail "flux R encode failed"

for directory in "${broker_directories[@]}"; do
  private_dir "$directory" || fail "cannot create $directory"
done
#@@IF ARCHIVE@@
if [ -e "$archive_path" ]; then
  say "restoring the instance state from $archive_path"
  broker_options+=("-Scontent.restore=$archive_path")
fi
#@@END ARCHIVE@@
