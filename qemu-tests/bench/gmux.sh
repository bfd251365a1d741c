# SPDX-License-Identifier: GPL-2.0
#
# Benchmark (make bench): gmux register accesses per backlight change and
# per interrupt-status read, as counted by the simulator, against the
# minimum each protocol needs; time per backlight change in the guest
# (TCG, so compare ratios and medians, not absolute numbers).

gmux_simulated || exit 0
N=200
gmux_load
max=$(cat "$BL/max_brightness")
dir=$(gmux_debugfs)

# minimum window accesses of one operation (src/lib/gmux_proto.c):
# classic: set = 4 byte writes, status = 1 read; indexed: set = 4 data
# bytes + ready poll + port + complete poll + ack = 8, status = ready poll
# + port + complete poll + ack + data = 5; T2: set = poll + data + port +
# command + poll = 5, status = poll + port + command + poll + data = 5.
case "$EXPECT_GMUX_KIND" in
classic) min_set=4 min_get=1 ;;
indexed) min_set=8 min_get=5 ;;
t2) min_set=5 min_get=5 ;;
esac

bench_line()
{
	# bench_line WHAT MIN TIMED-IO-RESULT
	r=$(gmux-simctl get reads)
	w=$(gmux-simctl get writes)
	ops=$(gmux-simctl get reg_reads)
	ops=$((ops + $(gmux-simctl get reg_writes)))
	per=$(awk -v a=$((r + w)) -v n=$N 'BEGIN { printf "%.2f", a / n }')
	set -- "$1" "$2" $3
	echo "bench apple_gmux_ng $EXPECT_GMUX_KIND $1 ops=$ops accesses_per_op=$per reads=$r writes=$w minimum=$2 median_us=$4 min_us=$5 max_us=$6" > "$RESULTS"
	echo "[guest] bench $1 $EXPECT_GMUX_KIND: $per accesses per op (minimum $2), median $4 us"
}

gmux-simctl reset-stats > /dev/null
res=$(timed-io -n $N write "$BL/brightness" $((max / 2)))
bench_line backlight-set $min_set "$res"

echo 0x16 > "$dir/selected_port"
gmux-simctl reset-stats > /dev/null
res=$(timed-io -n $N read "$dir/selected_port_data")
bench_line status-read $min_get "$res"

rmmod apple_gmux_ng
pass apple_gmux_ng bench-ran
