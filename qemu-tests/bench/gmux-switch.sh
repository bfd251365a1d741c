# SPDX-License-Identifier: GPL-2.0
#
# Benchmark (make bench) of GPU switching and dGPU power:
# - time of a mux switch (MDIS/MIGD through vga_switcheroo) and of a dGPU
#   power change (OFF/ON), and for the power changes the share spent
#   waiting for the gmux to signal completion (the simulator's "hardware"
#   wait) against the driver's own time;
# - gmux register operations and window accesses per switch, against the
#   minimum: the registers a switch must write, without reading them back;
# - the share of an idle minute the simulated dGPU is powered once its
#   driver (the fake GPU driver with runpm=1, as nouveau.runpm=1) has
#   runtime-suspended it, and how long after the autosuspend delay its
#   power goes; the same share in an idle window of IDLE_OTHER_S seconds
#   under the fake amdgpu (BACO: kept powered by design) and the fake
#   radeon (no runtime PM: powered; after vga_switcheroo OFF: cut);
# - with an external display on the dGPU (the fake driver's display file),
#   then after it is unplugged, in windows of IDLE_OTHER_S seconds: the
#   share of samples the dGPU is powered and the share its driver has it
#   runtime-suspended, under nouveau runpm=1 (plugged and lit: held) and
#   amdgpu (plugged: no BACO; the power is never cut under amdgpu);
# - the same share over an idle minute for a dGPU without a driver (its
#   driver blacklisted: a driver_override naming none, on it and its
#   audio), cut by apple_gmux_ng with its default 5 s autosuspend delay,
#   and how long after the load the cut came (goal: powered at most 1 %
#   of the minute, i.e. off at least 99 %);
# - power-on to driver-resumed (a runtime resume of the cut dGPU),
#   split into the firmware's link handshake (PWRD(0)), the wait for the
#   gmux's completion, the rest of the power change, and the PCI core's
#   and the driver's resume (the fake driver's own is empty: a real one
#   re-POSTs, which takes far longer).
# TCG: compare ratios and medians, not absolute times.

[ -n "${EXPECT_DGPU_DEV:-}" ] || exit 0
gmux_simulated || exit 0
D=$EXPECT_DGPU_DEV
N=50
DELAY_MS=500
IDLE_OTHER_S=${IDLE_OTHER_S:-20}

# powered_share SECONDS: the share of 0.2 s samples with the simulated
# dGPU powered, over SECONDS
powered_share()
{
	_on=0 _n=0 _end=$(( $(uptime_cs) + $1 * 100 ))
	while [ "$(uptime_cs)" -lt "$_end" ]; do
		[ "$(gmux-simctl get dgpu_on)" = 1 ] && _on=$((_on + 1))
		_n=$((_n + 1))
		sleep 0.2
	done
	echo "samples=$_n powered_samples=$_on powered_share=$(awk -v a=$_on -v n=$_n 'BEGIN { printf "%.4f", a / n }')"
}
# display_share SECONDS: as powered_share, and the share of the samples
# with the dGPU runtime-suspended by its driver (amdgpu: in BACO)
display_share()
{
	_on=0 _sus=0 _n=0 _end=$(( $(uptime_cs) + $1 * 100 ))
	while [ "$(uptime_cs)" -lt "$_end" ]; do
		[ "$(gmux-simctl get dgpu_on)" = 1 ] && _on=$((_on + 1))
		grep -q '^status: suspended' "$TEST_GPU/$D/runpm" && _sus=$((_sus + 1))
		_n=$((_n + 1))
		sleep 0.2
	done
	echo "samples=$_n powered_share=$(awk -v a=$_on -v n=$_n 'BEGIN { printf "%.4f", a / n }')" \
		"suspended_share=$(awk -v a=$_sus -v n=$_n 'BEGIN { printf "%.4f", a / n }')"
}
# median of the arguments
median() { echo "$@" | tr ' ' '\n' | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }

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
share=$(powered_share 60)
a1=$(cat "$sw/runtime_active_time")
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND idle-minute driver=nouveau-runpm $share switch_active_ms=$((a1 - a0)) off_after_delay_median_ms=$med" > "$RESULTS"
echo "[guest] bench idle minute $EXPECT_GMUX_KIND nouveau runpm=1: $share; power off ${med} ms after the autosuspend delay (median)"

# Power-on to driver-resumed: a runtime resume of the cut dGPU.
wall= link= wait= power=
for i in 1 2 3 4 5 6 7 8 9; do
	wait_until 10 sh -c "[ \"\$(gmux-simctl get dgpu_on)\" = 0 ]" > /dev/null || break
	l0=$(gmux_sw link_us) w0=$(gmux_sw power_wait_us) p0=$(gmux_sw power_time_us)
	set -- $(timed-io write "$TEST_GPU/$D/hold" 1)
	wall="$wall $2" link="$link $(( $(gmux_sw link_us) - l0 ))"
	wait="$wait $(( $(gmux_sw power_wait_us) - w0 ))" power="$power $(( $(gmux_sw power_time_us) - p0 ))"
	echo 0 > "$TEST_GPU/$D/hold"
done
# shellcheck disable=SC2086
mw=$(median $wall) ml=$(median $link) mg=$(median $wait) mp=$(median $power)
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND power-on-to-resumed samples=$(echo $wall | wc -w) median_us=$mw link_handshake_us=$ml gmux_wait_us=$mg power_change_rest_us=$((mp - ml - mg)) pci_and_driver_us=$((mw - mp))" > "$RESULTS"

# An external display on the dGPU (the fake driver's display file): plugged
# and lit, nouveau holds the dGPU (a reference per lit CRTC); unplugged (the
# CRTC off), it is cut again. The shares over IDLE_OTHER_S seconds each.
wait_until 10 sh -c "[ \"\$(gmux-simctl get dgpu_on)\" = 0 ]" > /dev/null
echo connect > "$TEST_GPU/$D/display"
echo light > "$TEST_GPU/$D/display"
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND display driver=nouveau-runpm external=connected-lit seconds=$IDLE_OTHER_S $(display_share "$IDLE_OTHER_S")" > "$RESULTS"
echo disconnect > "$TEST_GPU/$D/display"
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND display driver=nouveau-runpm external=unplugged seconds=$IDLE_OTHER_S $(display_share "$IDLE_OTHER_S")" > "$RESULTS"
gpu_modules_out

# The fake amdgpu: BACO runtime PM, never cut (its resume needs power).
gmux_wire_on
gmux_load
modprobe macsupport_test_gpu mode=amdgpu autosuspend_ms=$DELAY_MS
wait_until 10 sh -c "[ \"\$(sed -n 's/^status: //p' '$TEST_GPU/$D/runpm' 2>/dev/null)\" = suspended ]" > /dev/null
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND idle-window driver=amdgpu-baco seconds=$IDLE_OTHER_S $(powered_share "$IDLE_OTHER_S")" > "$RESULTS"
# a display connected (not lit): amdgpu refuses to suspend, no BACO; unplugged, BACO
echo connect > "$TEST_GPU/$D/display"
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND display driver=amdgpu-baco external=connected seconds=$IDLE_OTHER_S $(display_share "$IDLE_OTHER_S")" > "$RESULTS"
echo disconnect > "$TEST_GPU/$D/display"
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND display driver=amdgpu-baco external=unplugged seconds=$IDLE_OTHER_S $(display_share "$IDLE_OTHER_S")" > "$RESULTS"
gpu_modules_out

# The fake radeon: no runtime PM (powered), then vga_switcheroo OFF.
gmux_wire_on
gmux_load
modprobe macsupport_test_gpu mode=radeon
wait_until 10 sh -c "grep -q ':DIS:' '$VGASR'" > /dev/null
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND idle-window driver=radeon seconds=$IDLE_OTHER_S $(powered_share "$IDLE_OTHER_S")" > "$RESULTS"
echo OFF > "$VGASR"
echo "bench apple_gmux_ng $EXPECT_GMUX_KIND idle-window driver=radeon-switched-off seconds=$IDLE_OTHER_S $(powered_share "$IDLE_OTHER_S")" > "$RESULTS"
echo ON > "$VGASR"
gpu_modules_out

# No driver on the dGPU or its audio (blacklisted); the fake driver has the
# iGPU only. apple_gmux_ng's defaults: cut 5 s after the load.
A=${EXPECT_DGPU_AUDIO_DEV:-}
for f in $D $A; do
	echo macsupport_no_driver > "/sys/bus/pci/devices/$f/driver_override"
done
gmux_wire_on
modprobe macsupport_test_gpu
t0=$(uptime_cs)
gmux_load
if wait_until 30 sh -c "[ \"\$(gmux-simctl get dgpu_on)\" = 0 ]" > /dev/null; then
	cut_ms=$(( ($(uptime_cs) - t0) * 10 ))
	share=$(powered_share 60)
	off=$(echo "$share" | awk -F'powered_share=' '{ printf "%.2f", (1 - $2) * 100 }')
	echo "bench apple_gmux_ng $EXPECT_GMUX_KIND idle-minute driver=none $share off_percent=$off cut_after_load_ms=$cut_ms goal_off_percent=99" > "$RESULTS"
	echo "[guest] bench idle minute $EXPECT_GMUX_KIND no driver: off ${off} % of the minute (goal >= 99 %), cut ${cut_ms} ms after the load"
else
	echo "bench apple_gmux_ng $EXPECT_GMUX_KIND idle-minute driver=none not-cut stay_on_reason='$(cat "$(gmux_pnp)/dgpu_power/stay_on_reason")'" > "$RESULTS"
fi
gpu_modules_out
for f in $D $A; do
	echo > "/sys/bus/pci/devices/$f/driver_override"
done
pass apple_gmux_ng bench-switch-ran
