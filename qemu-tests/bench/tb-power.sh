# SPDX-License-Identifier: GPL-2.0
#
# Benchmark (make bench) of Thunderbolt power management, on the
# profile's first controller:
# - the powered-off share of an idle minute once the controller went off
#   (goal: at least 99 %), as tb_macpm counts it; on Thunderbolt 3 also
#   each rail's off share as the firmware switched it (the pad model's
#   timing of the real pads: what saves power, whatever tb_macpm says);
# - plug to usable: from the plug GPE (timestamped in the GPE handler) to the
#   upstream port answering after XRPE/TRPE(1), against the power-up delay
#   the SSDT simulates (ZUPD = 1000 ms): the overhead is what tb_macpm adds
#   (goal: at most 5 %); on Thunderbolt 3, from the plug GPE or notify to
#   the NHI resumed, the firmware's own power-up in between (the upstream
#   port's and the NHI's _PS0: their fixed sleeps of the real tables, about
#   0.9 s, and ZUPD in UGIO), so its "overhead" includes the firmware's;
# - the time of one power cycle (plug GPE, power-up, idle, power-down) with
#   100 ms delays, median of 10.
# TCG: compare ratios and medians, not absolute times.

[ "${EXPECT_APPLE:-0}" = 1 ] && [ -n "${EXPECT_TB_NHI:-}" ] || exit 0
[ "$(tb_nth "$EXPECT_TB_GPE_SOURCE" 1)" != none ] || exit 0
nhi=$(tb_nth "$EXPECT_TB_NHI" 1)
tb_load
tb_fast "$nhi"
wait_until 30 tb_is 1 off > /dev/null

# idle minute: tb_macpm's own account, and on Thunderbolt 3 the rails as
# the firmware switched them (the profile's pad model times each pad's off
# time from the AML's Timer: ZPOT), which is what saves power
off0=$(tb_attr 1 off_ms) on0=$(tb_attr 1 on_ms)
rails=
if tb_gen3 1; then
	tbt0=$(tb_fw 1 ZPOT) usb0=$(tb_xfw 1 ZPOT)
	# the same clock as the pads' (the guest's uptime drifts from it under TCG)
	t0=$(tb_eval '\_SB.ZPTM')
fi
sleep 60
off1=$(tb_attr 1 off_ms) on1=$(tb_attr 1 on_ms)
share=$(awk -v f=$((off1 - off0)) -v n=$((on1 - on0)) 'BEGIN { printf "%.2f", 100 * f / (f + n) }')
if tb_gen3 1; then
	ms=$(( $(tb_eval '\_SB.ZPTM') - t0 ))
	rails=$(awk -v t=$(( $(tb_fw 1 ZPOT) - tbt0 )) -v u=$(( $(tb_xfw 1 ZPOT) - usb0 )) -v ms="$ms" \
		'BEGIN { printf " tbt_rail_off_share_pct=%.2f usb_rail_off_share_pct=%.2f", 100 * t / ms, 100 * u / ms }')
fi

# plug to usable, 5 times with a 1000 ms simulated power-up
tb_fw_set 1 ZUPD 1000
lat=
for i in 1 2 3 4 5; do
	tb_fw_set 1 ZPLG 1
	tb_plug 1
	wait_until 15 tb_is 1 on > /dev/null
	lat="$lat $(tb_attr 1 last_wake_ms)"
	tb_fw_set 1 ZPLG 0
	wait_until 20 tb_is 1 off > /dev/null
done
tb_fw_set 1 ZUPD 100
med=$(echo $lat | tr ' ' '\n' | sort -n | sed -n 3p)
ovh=$(awk -v l="$med" 'BEGIN { printf "%.1f", 100 * (l - 1000) / 1000 }')

# power cycle time
cyc=
for i in 1 2 3 4 5 6 7 8 9 10; do
	t0=$(uptime_cs)
	tb_fw_set 1 ZPLG 1
	tb_plug 1
	wait_until 15 tb_is 1 on > /dev/null
	tb_fw_set 1 ZPLG 0
	wait_until 20 tb_is 1 off > /dev/null
	cyc="$cyc $(( $(uptime_cs) - t0 ))"
done
cmed=$(echo $cyc | tr ' ' '\n' | sort -n | sed -n 5p)
echo "bench tb_macpm mechanism='$(tb_attr 1 mechanism)' idle_off_share_pct=$share$rails plug_to_usable_median_ms=$med simulated_power_up_ms=1000 overhead_pct=$ovh latencies_ms='${lat# }' power_cycle_median_cs=$cmed (delays ${TB_FAST_MS} ms, plug hold 500 ms)" > "$RESULTS"
