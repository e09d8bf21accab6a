#!/usr/bin/env bash
# Real Linux perf against the buffers the unit writes. For each configuration below:
# simulate (model backend) and write the buffer and a perf.data file (`spe sim --perf`),
# then check that
#   1. `perf report -D` decodes every byte: no "Bad packet!", no error, and it dumps as many
#      packets as `spe decode` finds;
#   2. `perf script --itrace=i1i` gives exactly one instructions sample per record that
#      `spe decode` finds, with the same PC, total latency (weight) and data address, in
#      order, the same operation and data source, and (with timestamps) the time the
#      record's TS gives at the 100 MHz timer;
#   3. `perf mem report` runs.
# Then the AUX records (PERF_RECORD_AUX per output of the driver's AUX ring, sizes adding up
# to the data, a write error's output flagged truncated and partial, `[TP]` in the dump).
# Then a decoder parity check: random buffers (real records with corrupted bytes, padding,
# extended headers and random garbage) split into the same packets, with the same bytes and
# the same bad-packet offsets, in `spe decode` and in perf's dump. Packet names are not
# compared: perf 6.1 prints some payloads with older names (our decoder follows newer perf).
# Then the multithreaded presets: each thread's buffer is its own CPU of one perf.data, and
# perf gives each CPU exactly its thread's records. Preset v1p2x's previous-branch-target
# packets (FEAT_SPE_PBT, index 4) are framed by perf at the offsets spe decode finds them;
# its FEAT_SPE_EFT and FEAT_SPE_FDS filters, programmed from perf's own event string, leave
# only the selected records, which perf decodes like any other.
# Seeds: SPE_PERF_SEED (default 1); the replay line is printed.
# Usage: scripts/perf-check.sh [SPE_BINARY]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
SPE=${1:-target/release/spe}
need linux-perf perf
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

check() {
    local name=$1; shift
    local bin="$OUT/$name.bin" data="$OUT/$name.data"
    echo
    echo "==> $SPE sim $* --out $bin --perf $data"
    "$SPE" sim "$@" --quiet --out "$bin" --perf "$data" >/dev/null
    # Our decoder: packets, records, and per record PC / TOT / VA.
    "$SPE" decode "$bin" >"$OUT/$name.dec"
    local records packets
    records=$(sed -n 's/.* \([0-9]*\) records, .*/\1/p' "$OUT/$name.dec")
    packets=$(sed -n 's/^[0-9]* bytes, \([0-9]*\) packets,.*/\1/p' "$OUT/$name.dec")
    grep '^#' "$OUT/$name.dec" | sed -E 's/^#[0-9]+ @0x[0-9a-f]+ PC 0x([0-9a-f]+).*LAT ([0-9]+) TOT.*/\1 \2/' >"$OUT/$name.pc_tot"
    grep '^#' "$OUT/$name.dec" | sed -E 's/.*\| VA 0x([0-9a-f]+) .*/\1/; t; s/.*/0/' >"$OUT/$name.va"
    paste -d' ' "$OUT/$name.pc_tot" "$OUT/$name.va" >"$OUT/$name.ours"
    # 1. perf's dump.
    perf report -D -i "$data" >"$OUT/$name.dump" 2>"$OUT/$name.dump.err" || { cat "$OUT/$name.dump.err"; echo "error: perf report -D failed" >&2; exit 1; }
    if grep -q "Bad packet" "$OUT/$name.dump"; then
        grep -m5 -B2 "Bad packet" "$OUT/$name.dump"; echo "error: perf found bad packets in $name" >&2; exit 1
    fi
    if grep -qiE "error|failed" "$OUT/$name.dump.err"; then
        cat "$OUT/$name.dump.err"; echo "error: perf reported an error for $name" >&2; exit 1
    fi
    local perf_packets
    perf_packets=$(sed -n '/ARM SPE data: size/,/^$/p' "$OUT/$name.dump" | grep -cE '^\.  [0-9a-f]{8}:' || true)
    # 2. One sample per record, same PC, weight and address.
    perf script -i "$data" --itrace=i1i -F ip,weight,addr 2>/dev/null \
        | awk '{ print $3, $2, $1 }' >"$OUT/$name.perf"
    local samples
    samples=$(wc -l <"$OUT/$name.perf")
    # perf prints the address first, then weight, then ip: reorder to ip weight addr.
    awk '{ print $1, $2, $3 }' "$OUT/$name.perf" >"$OUT/$name.perf3"
    echo "$name: spe decode $records records / $packets packets; perf $samples samples / $perf_packets packets"
    [ "$records" -gt 0 ] || { echo "error: $name produced no records" >&2; exit 1; }
    [ "$packets" = "$perf_packets" ] || { echo "error: $name: perf dumped $perf_packets packets, spe decode $packets" >&2; exit 1; }
    [ "$records" = "$samples" ] || { echo "error: $name: $samples perf samples for $records records" >&2; exit 1; }
    if ! diff -q "$OUT/$name.ours" "$OUT/$name.perf3" >/dev/null; then
        diff "$OUT/$name.ours" "$OUT/$name.perf3" | head -10
        echo "error: $name: perf's samples differ from spe decode's records (PC TOT VA)" >&2; exit 1
    fi
    # 2a. Times: with timestamps on, each sample's perf time is the record's TS at the
    # default 100 MHz timer (perf prints seconds with microseconds, truncated).
    if grep -q '^#.*| TS [0-9]' "$OUT/$name.dec"; then
        grep '^#' "$OUT/$name.dec" | sed -E 's/.*\| TS ([0-9]+).*/\1/' \
            | awk '{ us = int($1 / 100); printf "%d.%06d\n", int(us / 1000000), us % 1000000 }' >"$OUT/$name.ts"
        perf script -i "$data" --itrace=i1i -F time 2>/dev/null | tr -d ' :' >"$OUT/$name.pts"
        if ! diff -q "$OUT/$name.ts" "$OUT/$name.pts" >/dev/null; then
            diff "$OUT/$name.ts" "$OUT/$name.pts" | head -6
            echo "error: $name: perf's sample times differ from the records' timestamps" >&2; exit 1
        fi
    fi
    # 2b. Data source: perf's operation matches ours, and perf's level for each load follows
    # from our data-source value (Neoverse N1 table: 0 L1, 8 L2, 14 DRAM; every other value
    # must map to one level consistently). perf reports a load without a data-source packet
    # as an L1 hit. An SVE-other op (class Other, `SVE-OTHER`): perf 6.1 reports it as a
    # LOAD (it reads the payload's SVE flags as its load flag); any answer is taken for it.
    grep '^#' "$OUT/$name.dec" | sed -E 's/^#[0-9]+ @0x[0-9a-f]+ PC 0x[0-9a-f]+ [^|]*\| ([A-Z]+)[^|]*.*/\1/' >"$OUT/$name.ops"
    grep '^#' "$OUT/$name.dec" | sed -E 's/.*\| DS ([0-9a-fx]+).*/\1/; t; s/.*/-/' >"$OUT/$name.ds"
    perf script -i "$data" --itrace=i1i -F data_src 2>/dev/null \
        | sed -E 's/.*\|OP ([A-Za-z]+)\|LVL ([^|]*)\|.*/\1;\2/' >"$OUT/$name.plvl"
    paste -d';' "$OUT/$name.ops" "$OUT/$name.ds" "$OUT/$name.plvl" | awk -F';' -v name="$name" '
        { want = ($1 == "LD") ? "LOAD" : ($1 == "ST") ? "STORE" : "No"
          if ($3 != want && $1 != "SVE") { print name ": record " NR ": op " $1 " but perf says " $3; bad = 1 }
          if ($1 == "LD") {
              ds = ($2 == "-") ? "0" : $2
              fixed["0"] = "L1"; fixed["8"] = "L2"; fixed["14"] = "RAM"
              if ((ds in fixed) && index($4, fixed[ds]) == 0) { print name ": record " NR ": DS " ds " but perf level " $4; bad = 1 }
              if ((ds in seen) && seen[ds] != $4) { print name ": DS " ds " maps to both " seen[ds] " and " $4; bad = 1 }
              seen[ds] = $4
          } }
        END { exit bad }' || { echo "error: $name: perf's data source differs from spe decode's" >&2; exit 1; }
    # 3. perf mem report runs.
    perf mem report -i "$data" --stdio >"$OUT/$name.mem" 2>"$OUT/$name.mem.err" || { cat "$OUT/$name.mem.err"; echo "error: perf mem report failed for $name" >&2; exit 1; }
}

check loop     --workload loop --cycles 1000000 --jitter
check mix-nots --workload mix --cycles 1000000 --no-ts --preset w2
check mix-nocx --workload mix --cycles 1000000 --no-cx --preset c16
check mem-pa   --workload memory --cycles 1000000 --pa --pct-physical --preset wide
check branchy  --workload branchy --cycles 1000000 --filter-type b --preset minimal
check modes    --workload modes --cycles 1000000 --host --preset fastsim
check lat      --workload mix --cycles 1000000 --min-latency 20 --preset default
check eret     --workload modes --cycles 1000000 --filter-type b --interval 256 --preset fastsim
# Branch targets of ERETs from the kernel (EL1) to user code (EL0): perf makes a branch sample
# of each mispredicted branch, with the target as its address (arm_spe_calc_ip). The target
# packet must carry EL0 (Arm ARM D18.2.1), so perf's to_ip has no 0xff top byte
# (0xff00aaaa... would mean the branch's EL1 was recorded).
perf script -i "$OUT/eret.data" --itrace=b -F ip,addr 2>/dev/null | awk '{ print $1, $2 }' >"$OUT/eret.br"
erets=$(awk '$2 ~ /^ffff8/ && $1 !~ /^ffff8/' "$OUT/eret.br" | wc -l)
bad=$(awk '$2 ~ /^ffff8/ && $1 ~ /^ff00/' "$OUT/eret.br" | wc -l)
echo "eret: perf shows $erets branch samples from the kernel to user code, $bad with a 0xff top byte"
[ "$erets" -gt 0 ] || { echo "error: no ERET from the kernel to user code among perf's branch samples" >&2; exit 1; }
[ "$bad" = 0 ] || { awk '$2 ~ /^ffff8/ && $1 ~ /^ff00/' "$OUT/eret.br" | head -3; echo "error: ERET targets with a 0xff top byte" >&2; exit 1; }
# Preset v1p5 (FEAT_SPEv1p5: nVM and EXC change how the buffer is addressed and how its
# events are reported, not the records): its records decode as every other preset's.
check v1p5     --workload mix --cycles 1000000 --preset v1p5
check pbt      --workload branchy --cycles 1000000 --jitter --preset v1p2x
# FEAT_SPE_PBT (preset v1p2x): the previous-branch-target Address packets (index 4) of taken
# branches. Debian's perf 6.1 has no name for index 4: it prints "ADDR <payload> (4)" and its
# record decoder ignores the packet; a newer perf prints "PBT". Either way perf frames every one
# (no bad packet, checked above) at the offsets spe decode finds them.
grep -E '^\.  [0-9a-f]{8}:  b4 ' "$OUT/pbt.dec" | cut -c1-13 >"$OUT/pbt.ours" || true
sed -n '/ARM SPE data: size/,/^$/p' "$OUT/pbt.dump" | grep -E '^\.  [0-9a-f]{8}:  b4 ' >"$OUT/pbt.lines" || true
cut -c1-13 "$OUT/pbt.lines" >"$OUT/pbt.perf"
pbts=$(wc -l <"$OUT/pbt.ours")
named=$(grep -cE '(ADDR 0x[0-9a-f]+ \(4\)|PBT 0x[0-9a-f]+)' "$OUT/pbt.lines" || true)
echo "pbt: spe decode finds $pbts index-4 Address packets; perf frames $(wc -l <"$OUT/pbt.perf") at the same offsets and prints $named of them as: $(head -1 "$OUT/pbt.lines" | grep -oE '(ADDR|PBT) 0x.*$' || true)"
[ "$pbts" -gt 0 ] || { echo "error: no previous-branch-target packet in preset v1p2x's records" >&2; exit 1; }
diff -q "$OUT/pbt.ours" "$OUT/pbt.perf" >/dev/null || { diff "$OUT/pbt.ours" "$OUT/pbt.perf" | head -5; echo "error: perf frames the index-4 packets elsewhere than spe decode" >&2; exit 1; }
[ "$named" = "$pbts" ] || { grep -vE '(ADDR 0x[0-9a-f]+ \(4\)|PBT 0x)' "$OUT/pbt.lines" | head -3; echo "error: perf prints an index-4 packet as neither ADDR (4) nor PBT" >&2; exit 1; }
# FEAT_SPE_EFT and FEAT_SPE_FDS (preset v1p4), from perf's event string: loads or FP ops
# (LD OR FP), and of the loads with a data source only those from DRAM (source 14:
# inv_data_src_filter drops 0-13). Every record perf decodes is one of them.
check eft-fds  --workload mix --cycles 1000000 --preset v1p4 \
    --event 'arm_spe/load_filter=1,float_filter=1,inv_data_src_filter=0x3fff,period=256/'
paste -d' ' "$OUT/eft-fds.ops" "$OUT/eft-fds.ds" >"$OUT/eft-fds.opds"
lds=$(awk '$1 == "LD"' "$OUT/eft-fds.opds" | wc -l)
dram=$(awk '$1 == "LD" && $2 == "14"' "$OUT/eft-fds.opds" | wc -l)
other=$(awk '$1 == "LD" && $2 != "14" && $2 != "-"' "$OUT/eft-fds.opds" | wc -l)
echo "eft-fds: $(wc -l <"$OUT/eft-fds.opds") records, $lds loads ($dram from DRAM, $other from another source)"
[ "$dram" -gt 0 ] || { echo "error: no DRAM load kept by the data-source filter" >&2; exit 1; }
[ "$other" = 0 ] || { awk '$1 == "LD" && $2 != "14" && $2 != "-"' "$OUT/eft-fds.opds" | head -3; echo "error: the data-source filter kept a load from another source" >&2; exit 1; }
# Events above bit 15 (a 4-byte Events payload, header 0x62). The SVE events (v1p2x)
# (the sve workload): PMSEVFR = E[17] keeps the SVE ops with a partial or empty predicate,
# and perf names E[17] in every record. SPEv1p4's (v1p4, the memory workload): PMSEVFR = E[20]
# keeps the loads that missed L2; perf (6.1 names bits 0..18 only) dumps their payload,
# whose byte 2 has bit 4 (E[20]) in every record, and spe decode names L2D-MISS in each.
check events-sve --workload sve --cycles 1000000 --preset v1p2x \
    --event 'arm_spe/event_filter=0x20000,period=256/'
check events-v1p4 --workload memory --cycles 1000000 --preset v1p4 \
    --event 'arm_spe/event_filter=0x100000,period=256/'
for name in events-sve events-v1p4; do
    grep -E '^\.  [0-9a-f]{8}:  ([0-9a-f]{2} ){5} +EV' "$OUT/$name.dump" >"$OUT/$name.ev" || true
    recs=$(grep -c '^#' "$OUT/$name.dec")
    ev=$(wc -l <"$OUT/$name.ev")
    wide=$(awk '$3 == "62"' "$OUT/$name.ev" | wc -l)
    [ "$ev" = "$recs" ] && [ "$wide" = "$recs" ] || { head -3 "$OUT/$name.ev"; echo "error: $name: $recs records, $ev Events packets, $wide of them 4-byte" >&2; exit 1; }
done
sve=$(grep -c 'SVE-PARTIAL-PRED' "$OUT/events-sve.ev")
# (Bit 4 of payload byte 2: an odd high hex digit; plain awk has no bit operators.)
l2m=$(awk 'substr($6, 1, 1) ~ /[13579bdf]/' "$OUT/events-v1p4.ev" | wc -l)
named=$(grep '^#' "$OUT/events-v1p4.dec" | grep -c 'L2D-MISS')
recs=$(grep -c '^#' "$OUT/events-v1p4.dec")
echo "events: $(wc -l <"$OUT/events-sve.ev") SVE records, $sve with SVE-PARTIAL-PRED in perf's dump; $recs L2D-miss records, $l2m with E[20] in perf's payload, $named named L2D-MISS by spe decode"
[ "$sve" = "$(wc -l <"$OUT/events-sve.ev")" ] || { echo "error: a record kept by PMSEVFR=E[17] lacks it" >&2; exit 1; }
[ "$l2m" = "$recs" ] && [ "$named" = "$recs" ] || { echo "error: a record kept by PMSEVFR=E[20] lacks it" >&2; exit 1; }
# FEAT_SPE_SME (v1p4, the sve workload): PMSEVFR = E[24] keeps the ops the core ran in
# Streaming SVE mode; perf dumps their 4-byte Events payload, whose byte 3 has bit 0 (E[24])
# in every record, and spe decode names STREAMING-SVE in each.
check events-sme --workload sve --cycles 1000000 --preset v1p4 \
    --event 'arm_spe/event_filter=0x1000000,period=256/'
grep -E '^\.  [0-9a-f]{8}:  ([0-9a-f]{2} ){5} +EV' "$OUT/events-sme.dump" >"$OUT/events-sme.ev" || true
recs=$(grep -c '^#' "$OUT/events-sme.dec")
sm=$(awk '$3 == "62" && substr($7, 2, 1) ~ /[13579bdf]/' "$OUT/events-sme.ev" | wc -l)
named=$(grep '^#' "$OUT/events-sme.dec" | grep -c 'STREAMING-SVE')
echo "events: $recs Streaming SVE records, $sm with E[24] in perf's payload, $named named STREAMING-SVE by spe decode"
[ "$recs" -gt 0 ] && [ "$sm" = "$recs" ] && [ "$named" = "$recs" ] || { head -3 "$OUT/events-sme.ev"; echo "error: a record kept by PMSEVFR=E[24] lacks it" >&2; exit 1; }
# AUX records: every output of the driver's AUX ring is a PERF_RECORD_AUX whose sizes add up
# to the data; a write error (PMBSR.DL) marks its output truncated and partial, as Linux does.
echo
echo "==> $SPE sim --workload mix --cycles 300000 --interval 256 --buffer-size 8192 (AUX records)"
"$SPE" sim --workload mix --cycles 300000 --interval 256 --buffer-size 8192 --quiet \
    --out "$OUT/aux.bin" --perf "$OUT/aux.data" >/dev/null
perf report -D -i "$OUT/aux.data" 2>/dev/null | grep "PERF_RECORD_AUX " >"$OUT/aux.recs" || true
n=$(wc -l <"$OUT/aux.recs")
sum=$(sed -E 's/.* size: (0x[0-9a-f]+|0) .*/\1/' "$OUT/aux.recs" | while read -r x; do echo $((x)); done | awk '{ s += $1 } END { print s + 0 }')
bytes=$(stat -c %s "$OUT/aux.bin")
echo "aux: $n AUX records, $sum bytes in them, $bytes bytes of data"
[ "$n" -ge 2 ] || { echo "error: expected several AUX records (the ring wraps)" >&2; exit 1; }
[ "$sum" = "$bytes" ] || { echo "error: the AUX records cover $sum bytes, the data is $bytes" >&2; exit 1; }
if grep -q "\[T" "$OUT/aux.recs"; then echo "error: a clean run has a truncated AUX record" >&2; exit 1; fi
echo
echo "==> $SPE sim --workload mix --cycles 300000 --mem-errors beat:37 (a truncated AUX record)"
"$SPE" sim --workload mix --cycles 300000 --mem-errors beat:37 --quiet \
    --out "$OUT/trunc.bin" --perf "$OUT/trunc.data" >/dev/null
perf report -D -i "$OUT/trunc.data" 2>"$OUT/trunc.err" | grep "PERF_RECORD_AUX " >"$OUT/trunc.recs" || true
cat "$OUT/trunc.recs"
grep -q "flags: 0x5 \[TP\]" "$OUT/trunc.recs" || { echo "error: no truncated, partial AUX record after a write error" >&2; exit 1; }
grep -q "AUX data lost" "$OUT/trunc.err" || { cat "$OUT/trunc.err"; echo "error: perf did not count the truncation" >&2; exit 1; }
echo "truncated: perf shows the output as truncated and partial ([TP]) and reports the AUX data lost"
# Decoder parity on corrupted random buffers.
SEED=${SPE_PERF_SEED:-1}
echo
echo "==> decoder parity, seeds $SEED..$((SEED + 4)) (replay: SPE_PERF_SEED=$SEED scripts/perf-check.sh)"
for s in $(seq "$SEED" $((SEED + 4))); do
    python3 - "$s" "$OUT/loop.bin" "$OUT/mem-pa.bin" "$OUT/rnd$s.bin" <<'PY'
import random, sys
seed, a, b, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
r = random.Random(seed)
src = bytearray(open(a, 'rb').read()[:64 * 300] + open(b, 'rb').read()[:64 * 300])
for _ in range(r.randrange(50, 500)):          # corrupted bytes
    src[r.randrange(len(src))] = r.randrange(256)
for _ in range(r.randrange(5, 50)):            # extended headers (0x20..0x23 prefixes) and padding
    at = r.randrange(len(src))
    src[at:at] = bytes([r.choice([0x20, 0x21, 0x22, 0x23, 0x00]), r.randrange(256)])
src += bytes(r.randrange(256) for _ in range(r.randrange(64, 4096)))  # garbage tail
# AUX data is whole 8-byte words (perf.data pads otherwise, which would change the tail).
src += bytes(r.randrange(256) for _ in range(-len(src) % 8))
open(out, 'wb').write(src)
PY
    "$SPE" perf --force "$OUT/rnd$s.bin" -o "$OUT/rnd$s.data" >/dev/null
    "$SPE" decode "$OUT/rnd$s.bin" 2>/dev/null | grep -E '^\.  [0-9a-f]{8}:' | cut -c1-62 >"$OUT/rnd$s.ours" || true
    perf report -D -i "$OUT/rnd$s.data" 2>/dev/null | sed -n '/ARM SPE data: size/,/^$/p' \
        | grep -E '^\.  [0-9a-f]{8}:' >"$OUT/rnd$s.dump"
    cut -c1-62 "$OUT/rnd$s.dump" >"$OUT/rnd$s.perf"
    bad=$(grep -c "Bad packet" "$OUT/rnd$s.dump" || true)
    ours_bad=$("$SPE" decode "$OUT/rnd$s.bin" 2>/dev/null | grep -c "Bad packet" || true)
    [ "$bad" = "$ours_bad" ] || { echo "error: seed $s: perf found $bad bad packets, spe decode $ours_bad" >&2; exit 1; }
    n=$(wc -l <"$OUT/rnd$s.perf")
    if ! diff -q "$OUT/rnd$s.ours" "$OUT/rnd$s.perf" >/dev/null; then
        diff "$OUT/rnd$s.ours" "$OUT/rnd$s.perf" | head -10
        echo "error: seed $s: spe decode and perf split the buffer differently (replay: SPE_PERF_SEED=$s scripts/perf-check.sh)" >&2
        exit 1
    fi
    [ "$n" -gt 0 ] || { echo "error: seed $s: perf dumped nothing" >&2; exit 1; }
    echo "seed $s: $n packets, $bad bad packets, identical offsets and bytes"
done

# Every multithreaded preset (those with a thread above 0 in `spe formal --list-preset-runs`,
# which derives them from the one preset table): each hardware thread's buffer is its own CPU
# of one perf.data; perf decodes it without a bad packet and gives each CPU exactly its
# thread's records.
mapfile -t smt_presets < <("$SPE" formal --list-preset-runs | awk '$2 > 0 { print $1 }' | sort -u)
[ "${#smt_presets[@]}" -gt 0 ] || { echo "error: spe lists no multithreaded preset" >&2; exit 1; }
for p in "${smt_presets[@]}"; do
    echo
    echo "==> $SPE sim --preset $p --workload mix --cycles 300000 --out $OUT/$p.bin --perf $OUT/$p.data"
    "$SPE" sim --preset "$p" --workload mix --cycles 300000 --quiet --out "$OUT/$p.bin" --perf "$OUT/$p.data" >/dev/null
    perf report -D -i "$OUT/$p.data" >"$OUT/$p.dump" 2>/dev/null || { echo "error: perf report -D failed on $p" >&2; exit 1; }
    if grep -q "Bad packet" "$OUT/$p.dump"; then echo "error: perf found bad packets in $p" >&2; exit 1; fi
    perf script -i "$OUT/$p.data" --itrace=i1i -F cpu 2>/dev/null | tr -d '[] ' | sort | uniq -c >"$OUT/$p.cpus"
    for t in $(seq 0 $(( $(ls "$OUT/$p.bin"* | wc -l) - 1 ))); do
        bin="$OUT/$p.bin"; [ "$t" = 0 ] || bin="$OUT/$p.bin.t$t"
        records=$("$SPE" decode "$bin" | sed -n 's/.* \([0-9]*\) records, .*/\1/p')
        cpu=$(printf '%03d' "$t")
        samples=$(awk -v c="$cpu" '$2 == c { print $1 }' "$OUT/$p.cpus")
        echo "$p thread $t: spe decode $records records; perf CPU $cpu ${samples:-0} samples"
        [ "$records" -gt 0 ] || { echo "error: $p thread $t wrote no records" >&2; exit 1; }
        [ "${samples:-0}" = "$records" ] || { echo "error: $p: perf gives CPU $cpu ${samples:-0} samples for thread $t's $records records" >&2; exit 1; }
    done
done

# docs/perf.md shows the first two lines perf script prints for its example command: a drift
# (a change of the stimulus, the unit or the perf.data writer) fails here.
echo
echo "==> $SPE sim --workload loop --cycles 2000000 --jitter --perf $OUT/readme.data; perf script | head -2 (docs/perf.md's example)"
"$SPE" sim --workload loop --cycles 2000000 --jitter --quiet --perf "$OUT/readme.data" >/dev/null
perf script -i "$OUT/readme.data" --itrace=i1i 2>/dev/null | head -2 >"$OUT/readme.txt" || true
[ -s "$OUT/readme.txt" ] || { echo "error: perf script printed nothing for docs/perf.md's example" >&2; exit 1; }
while IFS= read -r line; do
    grep -qxF -- "$line" docs/perf.md || {
        echo "error: docs/perf.md's perf example no longer shows what perf prints; update it to:" >&2
        cat "$OUT/readme.txt" >&2
        exit 1
    }
done <"$OUT/readme.txt"
cat "$OUT/readme.txt"

echo
echo "perf checks passed"
