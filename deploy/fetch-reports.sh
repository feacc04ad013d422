#!/usr/bin/env bash
# Unpacks the reports that the pods of a petstore-conformance Job printed, packed, at the end of their logs: JOB's reports
# into DIR, or each shard's into DIR/shard-N for the Indexed Job of deploy/shards. Run it before the Job's TTL removes it.
#   deploy/fetch-reports.sh JOB DIR
set -euo pipefail
usage='usage: deploy/fetch-reports.sh JOB DIR (a Job of deploy/nightly or deploy/shards; where its reports go)'
job=${1:?$usage}
dir=${2:?$usage}
pods=$(kubectl get pods -l "job-name=$job" \
  -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.metadata.annotations.batch\.kubernetes\.io/job-completion-index}{"\n"}{end}')
if [ -z "$pods" ]; then
  echo "fetch-reports: job $job has no pod (its TTL may have removed it)" >&2
  exit 2
fi
missing=0
while read -r pod index; do
  [ -n "$pod" ] || continue
  out=$dir${index:+/shard-$index}
  mkdir -p "$out"
  if ! log=$(kubectl logs "$pod"); then
    echo "fetch-reports: cannot read the log of pod $pod" >&2
    missing=2
    continue
  fi
  packed=$(printf '%s\n' "$log" | awk '/^petstore-conformance reports end$/ { inside = 0 } inside { print } /^petstore-conformance reports begin$/ { inside = 1 }')
  if [ -z "$packed" ]; then
    echo "fetch-reports: pod $pod printed no reports (kubectl logs $pod says why)" >&2
    missing=2
    continue
  fi
  printf '%s\n' "$packed" | base64 -d | tar -xzf - -C "$out"
  echo "fetch-reports: $pod -> $out"
done <<< "$pods"
exit $missing
