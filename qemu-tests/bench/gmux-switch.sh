# SPDX-License-Identifier: GPL-2.0
#
# Benchmark (make bench) of GPU switching and dGPU power (issue 8):
# - time of a mux switch (MDIS/MIGD through vga_switcheroo) and of a dGPU
#   power change (OFF/ON), and for the power changes the share spent
#   waiting for the gmux to signal completion (the simulator's "hardware"
#   wait) against the driver's own time;
# - gmux register operations and window accesses per switch, against the
#   minimum: the registers a switch must write, without reading them back;
# - the share of an idle minute the simulated dGPU is powered once its
#   driver (the fake GPU driver with runpm=1) has runtime-suspended it, and
#   how long after the autosuspend delay its power goes.
# TCG: compare ratios and medians, not absolute times.

[ -n "${EXPECT_DGPU_DEV:-}" ] || exit 0
gmux_simulated || exit 0
D=$EXPECT_DGPU_DEV
N=50
DELAY_MS=500

modprobe macsupport_test_gpe_wire gpe="$EXPECT_GMUX_GPE"
gmux_load
modprobe macsupport_test_gpu
wait_until 10 sh -c "[ -e '$TEST_GPU/$D/state' ]" > /dev/null

# minimum window accesses of one 8-bit register write (gmux.sh explains)
case "$EXPECT_GMUX_KIND" in
classic) per_write=1 writes=2 ;;	# SWITCH_DDC, SWITCH_DISPLAY
*) per_write=5 writes=1 ;;		# SWITCH_DISPLAY
esac

gmux-simctl reset-stats > /dev/null
set -- $(timed-io -n $N write "$VGASR" MDIS MIGD)
acc=$(( $(gmux-simctl get reads) + $(gmux-simctl get writes) ))
ops=$(( $(gmux-simctl get reg_reads) + $(gmux-simctl get reg_writes) ))
per=$(awk -v a="$acc" -v n=$((2 * N)) 'BEGIN { printf "%.2f", a / n }')
opsper=$(awk -v a="$ops" -v n=$((2 * N)) 'BEGIN { printf "%.2f", a / n }')
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND switch mdis_median_us=$2 migd_median_us=$5 reg_ops_per_switch=$opsper accesses_per_switch=$per minimum_accesses=$((writes * per_write)) minimum_reg_ops=$writes" > "$RESULTS"

pt0=$(gmux_sw power_time_us) pw0=$(gmux_sw power_wait_us) pc0=$(gmux_sw power_changes)
set -- $(timed-io -n 20 write "$VGASR" OFF ON)
pc=$(( $(gmux_sw power_changes) - pc0 ))
pt=$(( $(gmux_sw power_time_us) - pt0 ))
pw=$(( $(gmux_sw power_wait_us) - pw0 ))
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND power off_median_us=$2 on_median_us=$5 changes=$pc driver_us_per_change=$(( (pt - pw) / (pc > 0 ? pc : 1) )) gmux_wait_us_per_change=$(( pw / (pc > 0 ? pc : 1) )) failures=$(gmux_sw power_failures)" > "$RESULTS"

# Idle: the fake GPU driver with runtime PM, as nouveau.runpm=1.
rmmod macsupport_test_gpu
modprobe macsupport_test_gpu runpm=1 autosuspend_ms=$DELAY_MS
wait_until 10 sh -c "[ \"\$(gmux-simctl get dgpu_on)\" = 0 ]" > /dev/null
lat=
for i in 1 2 3 4 5 6 7 8 9; do
	echo 1 > "$TEST_GPU/$D/hold"
	echo 0 > "$TEST_GPU/$D/hold"
	t0=$(uptime_cs)
	wait_until 10 sh -c "[ \"\$(gmux-simctl get dgpu_on)\" = 0 ]" > /dev/null
	lat="$lat $(( ($(uptime_cs) - t0) * 10 - DELAY_MS ))"
done
med=$(echo $lat | tr ' ' '\n' | sort -n | sed -n 5p)
sw=$(gmux_pnp)/dgpu_power/power
a0=$(cat "$sw/runtime_active_time")
on=0 total=0
t_end=$(( $(uptime_cs) + 6000 ))
while [ "$(uptime_cs)" -lt "$t_end" ]; do
	[ "$(gmux-simctl get dgpu_on)" = 1 ] && on=$((on + 1))
	total=$((total + 1))
	sleep 0.2
done
a1=$(cat "$sw/runtime_active_time")
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND idle-minute samples=$total powered_samples=$on powered_share=$(awk -v a=$on -v n=$total 'BEGIN { printf "%.4f", a / n }') switch_active_ms=$((a1 - a0)) off_after_delay_median_ms=$med" > "$RESULTS"
echo "[guest] bench idle minute $EXPECT_GMUX_KIND: powered $on of $total samples; power off ${med} ms after the autosuspend delay (median)"
gpu_modules_out
pass apple_gmux_ng bench-switch-ran
