#!/bin/sh
# make fuzz-long: every libFuzzer target for FUZZ_SECONDS (default 600) each,
# one after the other, with its dictionary (fuzz/dict/), the per-target
# -max_len, and -timeout/-rss_limit_mb so that a slow or fat input is a
# finding. New inputs go to $B/fuzz-long/corpus/<target> (the checked-in
# corpus is only read); findings to $B/fuzz-long/<target>/. Prints one
# summary line per target (executions, new corpus files, findings) and
# writes them to $B/fuzz-long/summary.txt.
# usage: tools/fuzz-long.sh BUILD_DIR SECONDS TARGET...
set -u
B=$1
secs=$2
shift 2
out=$B/fuzz-long
mkdir -p "$out"
summary=$out/summary.txt
: > "$summary"
status=0
for t in "$@"; do
    bin=$B/fuzz/fuzz_$t
    work=$out/corpus/$t
    art=$out/$t
    mkdir -p "$work" "$art"
    dict=
    [ -f "fuzz/dict/$t.dict" ] && dict=-dict=fuzz/dict/$t.dict
    case $t in
    ctf_metadata | ctf2_metadata) maxlen=65536 ;; # whole metadata texts
    ctf_stream | event) maxlen=16384 ;;
    *) maxlen=8192 ;;
    esac
    before=$(ls "$work" | wc -l)
    log=$art/log.txt
    start=$(date -u +%H:%M:%S)
    "$bin" "$work" "fuzz/corpus/$t" $dict -max_len=$maxlen -timeout=10 -rss_limit_mb=512 \
        -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$art/" > "$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    after=$(ls "$work" | wc -l)
    findings=$(ls "$art" | grep -c -E '^(crash|leak|timeout|oom|slow-unit)-' || true)
    line="$t: ${secs}s from $start UTC, ${execs:-?} executions, $((after - before)) new corpus files, $findings findings (exit $rc)"
    echo "$line" | tee -a "$summary"
    if [ "$findings" != 0 ] || [ "$rc" != 0 ]; then
        status=1
        ls "$art" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' | sed "s|^|    $art/|" | tee -a "$summary"
    fi
done
exit $status
