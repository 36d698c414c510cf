# Entrypoint, phase 5: how the lead and the worker brokers start, and restart.
# Sets broker_config_dir for the next broker start.
prepare_broker_config() {
  broker_config_dir=$shared_config_dir
#@@IF HANDSHAKE@@
  # Wait (bounded) for the hosts handshake, then connect to the parent by its address. A failed
  # handshake ends this container with the handshake's own exit code, which the Job's
  # podFailurePolicy and `kubectl describe` show.
  local deadline=$((SECONDS + handshake_wait_seconds)) code
  until [ -e "$handshake_dir/ready" ]; do
    if [ -e "$handshake_dir/failed" ]; then
      env_file_value "$handshake_dir/failed" HANDSHAKE_EXIT_CODE || true
      code=$value
      [[ $code =~ ^[0-9]+$ ]] || code=1
      env_file_value "$handshake_dir/failed" HANDSHAKE_MESSAGE || true
      printf '%s: error: the hosts handshake failed (exit code %s): %s\n' "$script_name" "$code" "$value" >&2
      exit "$code"
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      fail "the hosts handshake did not write $handshake_dir/ready within ${handshake_wait_seconds}s (HANDSHAKE_WAIT_SECONDS)"
    fi
    nap
  done
  if [ "$rank" -gt 0 ]; then
    write_rank_config || fail "cannot write $rank_config_dir/broker.toml"
    broker_config_dir=$rank_config_dir
  fi
#@@END HANDSHAKE@@
}

run_lead() {
#@@IF LEAD_BATCH@@
  # The jobs' output goes to FLUX_OUTPUT_DIR.
  export FLUX_OUTPUT_DIR="$logs_dir"
  mkdir -p "$FLUX_OUTPUT_DIR" || fail "cannot create FLUX_OUTPUT_DIR $FLUX_OUTPUT_DIR"
  local batch_dir=${working_dir:-$PWD}
  if [ ! -w "$batch_dir" ]; then
    private_dir "$job_dir" || fail "cannot create $job_dir"
    batch_dir=$job_dir
  fi
  local batch_file="$batch_dir/flux-job.batch"
  replace_file 755 "$batch_file" write_text "$batch_text" || fail "cannot write $batch_file"
#@@END LEAD_BATCH@@
  run_hook brokerPre "$hook_broker_pre"
#@@IF RUNS_PROGRAM@@
  local prefix_words=()
  split_words prefix_words "$command_prefix" || fail "cannot parse commands.prefix: $command_prefix"
#@@END RUNS_PROGRAM@@
#@@IF SUBMIT_FLAGS@@
  local submit_flag_words=()
  split_words submit_flag_words "$submit_flags" || fail "cannot parse the submit flags: $submit_flags"
#@@END SUBMIT_FLAGS@@
#@@IF USER_COMMAND@@
  local user_command=()
#@@IF SCRIPT@@
  user_command=(bash "$job_script_file")
#@@END SCRIPT@@
#@@UNLESS SCRIPT@@
  split_words user_command "$command_line" || fail "cannot parse the command: $command_line"
#@@END SCRIPT@@
#@@END USER_COMMAND@@
  prepare_broker_config
#@@IF RUNS_PROGRAM@@
  # Every mode with a program: the broker, then lead-program.sh around the program, which runs Flux's
  # shutdown cleanup itself, and only when jobs are left.
  local program_start=(flux start "${wrap_option[@]}" -o --config "$broker_config_dir" "${broker_options[@]}" bash "$lead_program_script" "${prefix_words[@]}")
  export FLUX_DISABLE_JOB_CLEANUP=t
#@@END RUNS_PROGRAM@@
#@@IF LEAD_SUBMIT@@
#@@IF TIMED@@
  local submit_time=(/usr/bin/time -f 'FLUXTIME fluxsubmit wall time %E')
#@@END TIMED@@
#@@UNLESS TIMED@@
  local submit_time=()
#@@END TIMED@@
  local submit_words=()
  split_words submit_words "$submit_command" || fail "cannot parse the submit command: $submit_command"
  local lead_argv=("${program_start[@]}" "${submit_time[@]}" "${submit_words[@]}" "${submit_flag_words[@]}" --quiet --watch "${user_command[@]}")
#@@END LEAD_SUBMIT@@
#@@IF LEAD_LAUNCHER@@
  # The command is the instance's initial program.
  local lead_argv=("${program_start[@]}" "${user_command[@]}")
#@@END LEAD_LAUNCHER@@
#@@IF LEAD_BATCH@@
#@@UNLESS BATCH_RAW@@
  # The batch program submits each line as a job and writes their output here, on the lead.
  local lead_argv=("${program_start[@]}" bash "$batch_file")
#@@END BATCH_RAW@@
#@@IF BATCH_RAW@@
  # The user's script runs as one `flux batch` job, on whichever nodes it gets; its own output stays
  # in the KVS, so that this pod prints it.
  # shellcheck disable=SC2016 # $@ belongs to the inner bash, which gets the flags as arguments
  local lead_argv=("${program_start[@]}"
    bash -c 'batch_id=$(flux batch --output=kvs "$@") && flux job attach "$batch_id"' flux-batch "${submit_flag_words[@]}" "$batch_file")
#@@END BATCH_RAW@@
#@@END LEAD_BATCH@@
#@@IF LEAD_INTERACTIVE@@
  # No command: an interactive broker, and the pod stays up.
  local lead_argv=(flux broker --config-path "$broker_config_dir" "${broker_options[@]}")
#@@END LEAD_INTERACTIVE@@
  say "starting the lead broker: ${lead_argv[*]}"
  run_flux "${start_time[@]}" "${lead_argv[@]}" || exit_status=$?
  say "the lead broker exited with code $exit_status"
}

# Followers exit 1 when a new leader appears (a restarted lead pod), so a worker broker is restarted
# after a non-zero exit, until it exits 0 when the instance shuts down cleanly.
run_worker() {
  run_hook workerPre "$hook_worker_pre"
  local restarts=0 starts=0 status
#@@IF ELASTIC@@
  # Left by an earlier run of this container: this rank is not given up now.
  rm -f -- "$released_marker"
#@@END ELASTIC@@
#@@IF WORKER_RC@@
  # On a verified Flux install the worker's rc1 and rc3 run without Python (worker-rc.sh): a
  # Python flux-modprobe per worker was most of a cluster's start and stop on shared CPUs.
  local plan
  if plan=$(bash "$worker_rc_script" plan); then
    say "worker broker rc1 and rc3: $worker_rc_script, plan $plan"
    broker_options+=("-Sbroker.rc1_path=bash $worker_rc_script 1 $plan" "-Sbroker.rc3_path=bash $worker_rc_script 3 $plan")
  fi
#@@END WORKER_RC@@
#@@IF HANDSHAKE@@
  # A note left by an earlier run of this container is stale.
  rm -f -- "$parent_move_file"
  watch_parent_moves=true
#@@END HANDSHAKE@@
  while true; do
    prepare_broker_config
    starts=$((starts + 1))
    say "starting a worker broker (start $starts, $restarts after failures)"
    rm -f -- "$finished_marker"
    status=0
    run_flux flux start -o --config "$broker_config_dir" "${broker_options[@]}" || status=$?
#@@IF HANDSHAKE@@
    # Stopped by the parent watch: not a failure, restart at once with the parent's new address.
    if [ "$stopping" != true ] && take_parent_move; then
      continue
    fi
#@@END HANDSHAKE@@
    if [ "$stopping" = true ]; then
      say "the worker broker exited with code $status after a signal: not restarting"
      break
    fi
    if [ "$status" -eq 0 ]; then
      if [ "$worker_rejoins" != true ]; then
        say "the worker broker exited cleanly"
        break
      fi
      # The lead's program ended and said so on every rank (lead-program.sh): no lead will come.
      if [ -e "$finished_marker" ]; then
        say "the worker broker exited cleanly after the lead's program ended: done"
        break
      fi
      # A follower also exits 0 when its lead is evicted or preempted. With successPolicy the Job
      # reaps this pod once the lead succeeded, so waiting for a new lead costs nothing, while
      # exiting would complete this index and leave a replaced lead waiting for it forever.
      say "the worker broker exited cleanly: waiting for a lead (the Job ends this pod once the lead succeeded); restarting in ${worker_restart_delay}s"
      pause "$worker_restart_delay"
      continue
    fi
    if [ "$complete_workers" = true ]; then
      say "the worker broker exited with code $status; completeWorkers: not restarting"
      status=0
      break
    fi
    if [ "$worker_max_restarts" -gt 0 ] && [ "$restarts" -ge "$worker_max_restarts" ]; then
      printf '%s: error: %s\n' "$script_name" "the worker broker failed again (exit code $status) after $restarts restarts: giving up (workerMaxRestarts is $worker_max_restarts)" >&2
      break
    fi
    restarts=$((restarts + 1))
    say "the worker broker exited with code $status; restarting in ${worker_restart_delay}s"
    pause "$worker_restart_delay"
  done
  exit_status=$status
}
