#!/usr/bin/env bash
# Records this CPU's benchmark run and regenerates its summary: runs
# `compare` and `forms` with --csv into benches/results/<kind>-<date>.csv,
# then benches/summary.py, which rewrites the CPU's table in BENCHMARKS.md
# (the block between `<!-- begin generated: <kind> -->` and its end) and
# its chart, benches/results/<kind>.svg.
#
#   bash benches/record.sh [--quick] [--tier TIER] [KIND]
#
# KIND names the CPU in file names (zen3, zen4, zen5, sapphire-rapids);
# without it, it is told from /proc/cpuinfo's vendor, family and model.
# --tier (avx512, avx2, sse42, scalar) forces u8x's tier and simdutf's
# kernel of the same instruction set (icelake, haswell, westmere, fallback),
# tier against tier, into <kind>-<tier>-<date>.csv; without it, the best
# of each. Either way it ends with the cells below the best peer
# (summary.py --misses).
# Run it on a quiet machine: nothing else running, at default rounds (best
# of 7 rounds of ~20 ms per cell). --quick (2 rounds of ~4 ms) only proves
# the pipeline; its figures are noise.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
quick=()
kind=
tier=
tier_args=()
while (($#)); do
    arg=$1
    shift
    case $arg in
    --quick) quick=(--quick) ;;
    --tier)
        tier=${1:?--tier needs avx512, avx2, sse42 or scalar}
        shift
        case $tier in
        avx512) export SIMDUTF_FORCE_IMPLEMENTATION=icelake ;;
        avx2) export SIMDUTF_FORCE_IMPLEMENTATION=haswell ;;
        sse42) export SIMDUTF_FORCE_IMPLEMENTATION=westmere ;;
        scalar) export SIMDUTF_FORCE_IMPLEMENTATION=fallback ;;
        *) echo "record: unknown tier $tier" >&2; exit 2 ;;
        esac
        tier_args=(--tier "$tier")
        ;;
    -h | --help)
        sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *) kind=$arg ;;
    esac
done

cpuinfo() { awk -F': *' -v k="$1" '$1 ~ "^"k"[ \t]*$" { print $2; exit }' /proc/cpuinfo; }

if [[ -z $kind ]]; then
    vendor=$(cpuinfo vendor_id)
    family=$(cpuinfo 'cpu family')
    model=$(cpuinfo model)
    case $vendor/$family in
    # Family 25 is Zen 3 (models 0x00-0x0f, 0x20-0x5f) and Zen 4 (the rest).
    AuthenticAMD/25) if ((model < 16 || (model >= 32 && model < 96))); then kind=zen3; else kind=zen4; fi ;;
    AuthenticAMD/26) kind=zen5 ;;
    GenuineIntel/6) if grep -qw amx_tile /proc/cpuinfo; then kind=sapphire-rapids; else kind=intel-6-$model; fi ;;
    *) kind=$(printf '%s-%s-%s' "$vendor" "$family" "$model" | tr 'A-Z ' 'a-z-') ;;
    esac
fi
case $kind in
zen3) label="AMD EPYC Zen 3 (AVX2)" ;;
zen4) label="AMD EPYC Zen 4 (AVX-512)" ;;
zen5) label="AMD EPYC Zen 5 (AVX-512)" ;;
sapphire-rapids) label="Intel Xeon Sapphire Rapids (AVX-512)" ;;
*) label=$kind ;;
esac

results=$root/benches/results
work=$root/target/record
mkdir -p "$results" "$work"
out=$results/$kind${tier:+-$tier}-$(date -u +%F).csv
say() { printf 'record: %s\n' "$*"; }

say "$label ($kind): compare and forms${quick:+ (quick)} into ${out#"$root"/}"
cd "$root"
cargo bench --bench compare --bench forms --no-run --quiet
for bench in compare forms; do
    start=$SECONDS
    # The text tables go to target/record/ for reading; the CSV is the record.
    cargo bench --quiet --bench "$bench" -- "${quick[@]}" "${tier_args[@]}" --csv "$work/$bench.csv" >"$work/$bench.txt"
    say "$bench: $((SECONDS - start)) s, $(($(wc -l <"$work/$bench.csv") - 1)) rows (text tables in target/record/$bench.txt)"
done
# One file, one header: both benches write the same columns.
{ cat "$work/compare.csv"; tail -n +2 "$work/forms.csv"; } >"$out"

if [[ -n $tier ]]; then
    # A forced tier's run is for finding misses: its table and chart go
    # beside the CSV, not into BENCHMARKS.md's per-CPU block.
    label="$label, $tier tier forced"
    kind=$kind-$tier
fi
args=("${out#"$root"/}" --label "$label" --svg "benches/results/$kind.svg")
if [[ -z $tier ]] && grep -q "<!-- begin generated: $kind -->" BENCHMARKS.md; then
    python3 benches/summary.py "${args[@]}" --into BENCHMARKS.md --name "$kind"
    say "BENCHMARKS.md's $kind table and benches/results/$kind.svg regenerated"
else
    python3 benches/summary.py "${args[@]}" --markdown "$results/$kind.md"
    say "BENCHMARKS.md has no $kind block: table in benches/results/$kind.md, chart in benches/results/$kind.svg"
fi
python3 benches/summary.py "${out#"$root"/}" --misses
