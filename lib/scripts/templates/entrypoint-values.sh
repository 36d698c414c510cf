# Entrypoint, phase 1: the values rendered at synth time, and the paths derived from them.
script_name=entrypoint
# Values rendered at synth time, each one shell-quoted.
quiet=@@QUIET@@
cluster_name=@@CLUSTER_NAME@@
hostlist=@@HOSTLIST@@
mount_path=@@MOUNT_PATH@@
certificate_source=@@CERTIFICATE_PATH@@
broker_options=( @@BROKER_OPTIONS@@ )
broker_directories=( @@BROKER_DIRECTORIES@@ )
resource_encode_args=( @@RESOURCE_ENCODE_ARGS@@ )
complete_workers=@@COMPLETE_WORKERS@@
worker_rejoins=@@WORKER_REJOINS@@
finished_marker=@@FINISHED_MARKER@@
#@@IF ELASTIC@@
released_marker=@@RELEASED_MARKER@@
#@@END ELASTIC@@
worker_max_restarts=@@WORKER_MAX_RESTARTS@@
worker_restart_delay=@@WORKER_RESTART_DELAY_SECONDS@@
flux_view_script=@@FLUX_VIEW_SCRIPT@@
flux_connect_script=@@FLUX_CONNECT_SCRIPT@@
#@@IF VIEW_IMAGE_VOLUME@@
init_script=@@INIT_SCRIPT@@
#@@END VIEW_IMAGE_VOLUME@@
#@@IF VIEW_CHECK_IN_RUNNER@@
view_check_script=@@VIEW_CHECK_SCRIPT@@
#@@END VIEW_CHECK_IN_RUNNER@@
#@@IF WORKER_RC@@
worker_rc_script=@@WORKER_RC_SCRIPT@@
#@@END WORKER_RC@@
# The container's `commands` snippets.
hook_init=@@HOOK_INIT@@
hook_pre=@@HOOK_PRE@@
hook_broker_pre=@@HOOK_BROKER_PRE@@
hook_worker_pre=@@HOOK_WORKER_PRE@@
hook_post=@@HOOK_POST@@
#@@IF ARCHIVE@@
archive_path=@@ARCHIVE_PATH@@
#@@END ARCHIVE@@
#@@IF SCRIPT@@
job_script=@@JOB_SCRIPT@@
#@@END SCRIPT@@
#@@IF USER_COMMAND@@
#@@UNLESS SCRIPT@@
command_line=@@COMMAND@@
#@@END SCRIPT@@
#@@END USER_COMMAND@@
#@@IF RUNS_PROGRAM@@
lead_program_script=@@LEAD_PROGRAM_SCRIPT@@
command_prefix=@@COMMAND_PREFIX@@
wrap_option=( @@WRAP_OPTION@@ )
#@@END RUNS_PROGRAM@@
#@@IF LEAD_SUBMIT@@
submit_command=@@SUBMIT_COMMAND@@
#@@END LEAD_SUBMIT@@
#@@IF SUBMIT_FLAGS@@
submit_flags=@@SUBMIT_FLAGS@@
#@@END SUBMIT_FLAGS@@
#@@IF AUTOSCALE@@
autoscale_agent_script=@@AUTOSCALE_AGENT_SCRIPT@@
#@@END AUTOSCALE@@
#@@IF LEAD_BATCH@@
batch_text=@@BATCH_TEXT@@
logs_dir=@@LOGS_DIR@@
working_dir=@@WORKING_DIR@@
#@@END LEAD_BATCH@@
#@@IF HANDSHAKE@@
handshake_dir=@@HANDSHAKE_DIR@@
# The one hosts entry of the shared broker.toml, split per rank once the parent's address is known.
hosts_line=@@HOSTS_LINE@@
last_rank=@@LAST_RANK@@
#@@END HANDSHAKE@@
#@@IF RUNNER_EXIT_FILE@@
# The handshake sidecar ends once this file exists: the pod ends a kubelet cycle (~1 s) sooner.
runner_exit_file=@@RUNNER_EXIT_FILE@@
trap '{ : > "$runner_exit_file"; } 2>/dev/null || true' EXIT
#@@END RUNNER_EXIT_FILE@@
