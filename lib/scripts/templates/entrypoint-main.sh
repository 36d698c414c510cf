# Entrypoint, phase 6: the rank's broker runs, then the container's exit code.
run_hook pre "$hook_pre"
exit_status=0
if [ "$rank" -eq 0 ]; then
#@@IF AUTOSCALE@@
  # The autoscaler's Flux agent: it reports Flux's queue and resources to the autoscaler sidecar
  # and drains the ranks it names. It waits for the broker by itself, and ends with this container.
  bash "$autoscale_agent_script" &
  autoscale_agent_pid=$!
#@@END AUTOSCALE@@
  run_lead
#@@IF AUTOSCALE@@
  kill "$autoscale_agent_pid" 2>/dev/null || true
#@@END AUTOSCALE@@
else
  run_worker
fi
run_hook post "$hook_post"
# A failed post step on the lead (often a check of the job's outputs, which the lead holds) fails
# its container, and so the Job, when Flux did not; on the other ranks it is only reported, since a
# worker's failure would fail the Job while the lead may still be finishing.
if [ "$hook_status" -ne 0 ] && [ "$exit_status" -eq 0 ] && [ "$rank" -eq 0 ]; then
  exit_status=$hook_status
fi
# A signal means the pod is being deleted: an eviction, a preemption, a Job suspended (Kueue), or
# the Job reaping it. A broker exits 0 on SIGTERM, and the kubelet makes a deleted pod whose
# containers all exited 0 Succeeded, which completes its index: an evicted worker would get no
# replacement and an evicted lead would complete the Job. stopped_exit_code instead is ignored by
# the Job's podFailurePolicy (replaced, or recreated when a suspended Job resumes), uncounted.
if [ "$stopping" = true ]; then
  exit_status=$stop_code
#@@IF ELASTIC@@
  # A worker whose rank a shrink released (drained and idle in Flux, then the Job gave its index up
  # and deleted this pod): it ended as it should.
  if [ "$rank" -gt 0 ] && [ -e "$released_marker" ]; then
    say "rank $rank was released by a shrink of the cluster: exiting 0"
    exit_status=0
  fi
#@@END ELASTIC@@
elif [ "$exit_status" -eq "$stopped_exit_code" ]; then
  # Only a pod stopped from outside may end with this code: the Job would start a program that
  # ended so on its own again and again, each time uncounted.
  printf '%s: error: %s\n' "$script_name" "Flux or the program exited $stopped_exit_code, the code this container keeps for a pod stopped by Kubernetes: exiting 1 instead" >&2
  exit_status=1
fi
exit "$exit_status"
