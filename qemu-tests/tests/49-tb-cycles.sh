# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_TB_NHI,TEST_TB_STRESS
#
# Stress on the profile's first Thunderbolt controller, in a boot of its own:
# - a cable pulled in the middle of a slow power-up (ZUPD: 1500 ms more
#   than the firmware's own) that its plug started: no oops, no router,
#   nothing below the port, the controller off;
# - 50 power-down/power-up cycles through the plug GPE (raised for real by
#   the host) leave the runtime-PM usage counts of every device involved,
#   the device links and /proc/interrupts as they were.

[ "${EXPECT_APPLE:-0}" = 1 ] && [ -n "${EXPECT_TB_NHI:-}" ] || skip_test tb_macpm "no Thunderbolt controller on $PROFILE"
nhi=$(tb_nth "$EXPECT_TB_NHI" 1)
tb_load
tb_fast "$nhi"
wait_until 20 tb_is 1 off > /dev/null

# --- removal during power-up ---
# The cable in while the controller is off, and the plug GPE: a slow
# power-up (ZUPD 1500 ms), 0.5 s into which the cable comes out again.
# Nothing listened at either change (the NHI resumes only once powered),
# so the stand-in's connection manager finds no router and tunnels
# nothing: no PCI device may appear below the port (on a Mac none can
# before a tunnel is built), the controller must go off again. A Mac with
# no driver on its NHI (Eagle Ridge) has no cable model: ZPLG alone.
gone_and_off()
{
	tb_no_dev 1b36:0005 "$nhi" && tb_is 1 off &&
		{ [ "${EXPECT_TB_NHI_DRIVER:-}" = none ] || tb_port_is 1 1 router -; }
}
cable() { [ "${EXPECT_TB_NHI_DRIVER:-}" = none ] || tb_cable 1 1 "$1"; }
upd0=$(tb_fw 1 ZUPD)
if tb_fw_set 1 ZUPD 1500 && tb_fw_set 1 ZPLG 1 && cable plug; then
	tb_raise 1
	sleep 0.5
	cable unplug
	tb_fw_set 1 ZPLG 0
	if t=$(wait_until 40 gone_and_off); then
		pass tb_macpm removal-during-power-up "cable out 0.5 s into a 1.5 s power-up that its plug GPE started: no router found, nothing tunnelled or enumerated, controller off again $t s later${EXPECT_TB_NHI_DRIVER:+ (no driver on the NHI: the plug level alone)}"
	else
		fail tb_macpm removal-during-power-up "$(tb_find_dev 1b36:0005 "$nhi") present, port $(tb_port_line 1 1); $(tb_state 1)"
	fi
else
	fail tb_macpm removal-during-power-up "cannot set ZUPD, ZPLG or the cable"
	tb_fw_set 1 ZPLG 0
fi
tb_fw_set 1 ZUPD "$upd0"
wait_until 20 tb_is 1 off > /dev/null

# --- 50 cycles ---
# with shorter delays than the other tests (make check's time; the path is
# the same): NHI and power switch 50 ms, plug hold 100 ms
TB_FAST_MS=50 tb_fast "$nhi"
echo 100 > /sys/module/tb_macpm/parameters/plug_hold_ms
snapshot()
{
	for p in $(tb_chain "$nhi"); do
		echo "$p usage $(cat /sys/bus/pci/devices/$p/power/runtime_usage) active_kids $(cat /sys/bus/pci/devices/$p/power/runtime_active_kids)"
	done
	echo "switch usage $(cat "$TB_CLASS/$nhi/power/runtime_usage")"
	ls /sys/class/devlink | sort
	awk '{ print $1, $NF }' /proc/interrupts
}
snapshot > /tmp/tb-before
gpe=$(tb_gpe 1)
g0=$(awk '{ print $1 }' /sys/firmware/acpi/interrupts/gpe$gpe)
cy0=$(tb_attr 1 power_cycles)
w0=$(tb_attr 1 gpe_wakes)
t0=$(uptime_cs)
done=0
# The plug level (ZPLG, XRIL) goes back to "nothing plugged" as soon as
# the GPE was taken for a wake, before the 100 ms hold can end: kept up
# until the power-up was seen, it made a slow guest (the debug kernel) try
# to power down under a "plugged" XRIL, be refused five times in a row
# and keep the controller on, as tb_macpm must. A cycle is a wake and a
# power-down counted, and the controller off.
while [ $done -lt 50 ]; do
	w=$(tb_attr 1 gpe_wakes) c=$(tb_attr 1 power_cycles)
	woke() { [ "$(tb_attr 1 gpe_wakes)" != "$w" ]; }
	cycled() { [ "$(tb_attr 1 power_cycles)" != "$c" ] && tb_is 1 off; }
	tb_fw_set 1 ZPLG 1
	tb_raise 1
	wait_until 15 woke > /dev/null || break
	tb_fw_set 1 ZPLG 0
	wait_until 20 cycled > /dev/null || break
	done=$((done + 1))
done
t1=$(uptime_cs)
snapshot > /tmp/tb-after
g1=$(awk '{ print $1 }' /sys/firmware/acpi/interrupts/gpe$gpe)
if [ $done = 50 ] && cmp -s /tmp/tb-before /tmp/tb-after &&
   [ "$(tb_attr 1 power_cycles)" = $((cy0 + 50)) ] && [ "$(tb_attr 1 gpe_wakes)" = $((w0 + 50)) ]; then
	pass tb_macpm cycles-50 "50 cycles through GPE 0x$gpe (fired $((g1 - g0)) times), $(( (t1 - t0) / 50 )) cs per cycle; usage counts, $(grep -c . /tmp/tb-after) lines of links and interrupts unchanged"
else
	fail tb_macpm cycles-50 "$done cycles; power_cycles $cy0 -> $(tb_attr 1 power_cycles), wakes $w0 -> $(tb_attr 1 gpe_wakes); diff: $(diff /tmp/tb-before /tmp/tb-after | head -6 | tr '\n' ' ')"
fi
check tb_macpm cycles-no-unpowered-access [ "$(tb_unpowered "$nhi")" = 0 ]
