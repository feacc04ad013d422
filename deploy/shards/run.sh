#!/usr/bin/env bash
# The sharded load, from a machine with kubectl (a CI job, a laptop): starts the Indexed Job of deploy/shards (deleting the
# previous one), waits until it completes or fails, whichever comes first (a failed shard or the deadline ends the wait at
# once), unpacks every shard's reports into DIR/shard-N, and merges them into DIR/merged. The merge runs
# petstore-conformance, or the command in $PETSTORE_CONFORMANCE (e.g. "npx petstore-conformance").
#   deploy/shards/run.sh DIR
set -uo pipefail
dir=${1:?usage: deploy/shards/run.sh DIR (where the shard reports and the merged report go)}
here=$(cd "$(dirname "$0")" && pwd)
job=petstore-load-shards
timeout=${PETSTORE_SHARDS_TIMEOUT:-25m}

kubectl delete job "$job" --ignore-not-found --wait=true >/dev/null || exit 2
kubectl apply -k "$here" || exit 2
# kubectl wait takes one condition: wait for both, and take the first that holds.
kubectl wait --for=condition=complete --timeout="$timeout" "job/$job" >/dev/null &
complete=$!
kubectl wait --for=condition=failed --timeout="$timeout" "job/$job" >/dev/null &
failed=$!
outcome=timeout
while :; do
  if ! kill -0 "$failed" 2>/dev/null && wait "$failed"; then
    outcome=failed
    break
  fi
  if ! kill -0 "$complete" 2>/dev/null; then
    if wait "$complete"; then outcome=complete; fi
    break
  fi
  sleep 0.2
done
kill "$complete" "$failed" 2>/dev/null

# The shards' reports, whatever the outcome: a failed shard's say why.
"$here/../fetch-reports.sh" "$job" "$dir"
fetched=$?
case $outcome in
  failed)
    echo "petstore-conformance: job/$job failed (a shard could not run, or the deadline passed): see $dir/shard-*/ and kubectl describe job/$job; nothing was merged" >&2
    exit 2 ;;
  timeout)
    echo "petstore-conformance: job/$job was not seen to complete or fail within $timeout (kubectl says why above, if it could not tell); nothing was merged" >&2
    exit 2 ;;
esac
[ "$fetched" -eq 0 ] || exit 2
# shellcheck disable=SC2086 # the command may be several words
${PETSTORE_CONFORMANCE:-petstore-conformance} merge "$dir"/shard-*/report.json --report-dir "$dir/merged"
