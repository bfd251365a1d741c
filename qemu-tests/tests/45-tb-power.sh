# SPDX-License-Identifier: GPL-2.0
#
# The first Thunderbolt controller of the profile, idle, is powered down
# within its delays; a plug (its XRIN GPE, raised for real by the host)
# powers it up, the router behind the cable is found and tunnelled by the
# stand-in's connection manager, the tunnel's device hot-added under a
# downstream port is enumerated by pciehp, and once it is gone the
# controller goes off again. Thunderbolt 3 has no XRIN: its power-down
# through the votes is 42-tb3-power.sh's.
# Emulated: the controller's power is the SSDT's ZPWR (XRPE/TRPE), "plugged"
# its ZPLG (XRIL), the GPE is one QEMU raises (vmgenid: 0x05, CPU hot-add:
# 0x02) instead of the real pin's; the stand-in NHI driver behaves as
# thunderbolt.ko does for runtime PM. QEMU's devices keep their config space
# when "unpowered": the stand-in checks that no driver callback ran while
# ZPWR was 0 ("unpowered" must stay 0). At each checkpoint (fw_trace_take)
# the host replays the firmware calls so far on the Mac's own tables
# (replay.map: what they must show there).

[ "${EXPECT_APPLE:-0}" = 1 ] && [ -n "${EXPECT_TB_NHI:-}" ] || skip_test tb_macpm "no Thunderbolt controller on $PROFILE"
! tb_gen3 1 || skip_test tb_macpm "Thunderbolt 3 on $PROFILE (no XRIL, no XRIN): 42-tb3-power.sh"
[ "$(tb_nth "$EXPECT_TB_GPE_SOURCE" 1)" != none ] || skip_test tb_macpm "the harness cannot raise this controller's plug GPE on $PROFILE"

tb_load
nhi=$(tb_nth "$EXPECT_TB_NHI" 1)
tb_fast "$nhi"

cof0=$(tb_fw 1 ZCOF)
if t=$(wait_until 20 tb_is 1 off); then
	chain=
	for p in $(tb_chain "$nhi"); do
		chain="$chain $p:$(cat /sys/bus/pci/devices/$p/power_state)"
	done
	case "$chain" in
	*D0*|*D3hot*) fail tb_macpm idle-off "off after $t s but devices not D3cold:$chain" ;;
	*) pass tb_macpm idle-off "off $t s after load (delays: NHI and switch ${TB_FAST_MS} ms), XRPE/TRPE(0) calls $cof0 -> $(tb_fw 1 ZCOF), devices:$chain" ;;
	esac
else
	fail tb_macpm idle-off "not off after 20 s: $(tb_state 1)"
	return 0
fi
fw_trace_take idle-off

# a plug: XRIL says "plugged", then the GPE
wakes0=$(tb_attr 1 gpe_wakes)
# the plug holds the ports 10 s (the default), not tb_fast's 500 ms, until
# they are pinned below: a slow guest (the debug kernel) could let that
# pass with refused power-downs (ZPLG 1, nothing enumerated yet)
echo 10000 > /sys/module/tb_macpm/parameters/plug_hold_ms
tb_fw_set 1 ZPLG 1
tb_raise 1
if t=$(wait_until 15 tb_is 1 on); then
	pass tb_macpm plug-powers-on "on $t s after the GPE, last_wake_ms $(tb_attr 1 last_wake_ms), gpe_wakes $wakes0 -> $(tb_attr 1 gpe_wakes), NHI $(cat /sys/bus/pci/devices/$nhi/power/runtime_status)"
else
	fail tb_macpm plug-powers-on "$(tb_state 1); gpe: $(cat /sys/firmware/acpi/interrupts/gpe$(tb_gpe 1) 2>/dev/null)"
	tb_fw_set 1 ZPLG 0
	echo 500 > /sys/module/tb_macpm/parameters/plug_hold_ms
	return 0
fi
fw_trace_take plug-powers-on

# the router behind the cable: its link comes up while the plug holds the
# NHI, the stand-in's connection manager finds it and tunnels it, and only
# then does the host add the tunnel's device under the downstream port,
# which pciehp enumerates (a cable that went in before the connection
# manager listened: 44-tb-connected.sh, its T4 part). QEMU's hot-add needs the ports
# kept resumed (tb_pin_ports says why).
dsb=$(tb_nth "$EXPECT_TB_DSB" 1)
tb_pin_ports "$nhi"
echo 500 > /sys/module/tb_macpm/parameters/plug_hold_ms
if [ "${EXPECT_TB_NHI_DRIVER:-}" = none ]; then
	skip tb_macpm plug-enumerated "no driver binds this NHI on $PROFILE (Debian's thunderbolt.ko has no alias for it): no connection manager finds a plugged router or builds its PCIe tunnel, so nothing appears below the port"
elif ! pciehp_hotadd tb_macpm plug-enumerated; then
	:
elif ! tb_cable 1 1 plug || ! tb_tunnel_follow 1 1 up 15; then
	fail tb_macpm plug-enumerated "cable in with the NHI listening: $TB_WHY; $(tb_state 1)"
elif t=$(wait_until 15 tb_find_dev 1b36:0005 "$nhi"); then
	pass tb_macpm plug-enumerated "cable in with the NHI listening: the stand-in's connection manager found router $(tb_port_info 1 1 router) and tunnelled it; the host then added pci-testdev under $dsb, enumerated by pciehp in $t s: $(tb_find_dev 1b36:0005 "$nhi")"
else
	fail tb_macpm plug-enumerated "tunnelled, but no pci-testdev under $dsb after 15 s; $(tb_state 1)"
fi
# unplugged: XRIL says so at once; the tunnel goes with the cable, the
# host removes its device, the connection manager its router
if [ "${EXPECT_TB_NHI_DRIVER:-}" != none ] && tb_port_is 1 1 cable 1; then
	tb_cable 1 1 unplug
	tb_fw_set 1 ZPLG 0
	tb_tunnel_follow 1 1 down 20 || echo "[guest] unplug: $TB_WHY"
	wait_until 20 tb_port_is 1 1 router - > /dev/null
fi
tb_unpin_ports
tb_fw_set 1 ZPLG 0
if t=$(wait_until 30 tb_is 1 off); then
	pass tb_macpm unplug-off-again "off again $t s after the device left; unpowered driver callbacks: $(tb_unpowered "$nhi")"
else
	fail tb_macpm unplug-off-again "$(tb_state 1)"
fi
fw_trace_take unplug-off-again
check tb_macpm no-unpowered-access [ "$(tb_unpowered "$nhi")" = 0 ]

# A plug that nothing resumed for (review finding F6): the NHI suspended while the
# power switch is not yet off, the GPE not armed, ZPLG set without a GPE (as
# a Thunderbolt 2 device router that runtime-suspends under 6.1's
# thunderbolt.ko, or a plug inside the power-down window). XRIL refuses the
# power-down: the controller must be powered again with the NHI resumed to
# look, stay managed, and go off once unplugged. Emulated: the plug is ZPLG.
tb_hold "$nhi" 1
if ! wait_until 15 tb_is 1 on > /dev/null; then
	fail tb_macpm plug-in-window "not on while the NHI is held: $(tb_state 1)"
	tb_hold "$nhi" 0
	return 0
fi
ref0=$(tb_attr 1 refusals)
res0=$(sed -n 's/^runtime_resumes: //p' "/sys/kernel/debug/macsupport_test_nhi/$nhi/status" 2>/dev/null)
# Each refusal holds the ports plug_hold_ms: 5 s here, so that the checks
# below (seconds on the debug kernel) come long before the fifth refusal
# in a row, which would leave the controller on by design.
echo 5000 > /sys/module/tb_macpm/parameters/plug_hold_ms
tb_fw_set 1 ZPLG 1
tb_hold "$nhi" 0
refused() { [ "$(tb_attr 1 refusals)" -gt "$ref0" ]; }
if ! t=$(wait_until 20 refused); then
	fail tb_macpm plug-in-window "no power-down tried in 20 s: $(tb_state 1)"
elif ! wait_until 10 tb_is 1 on > /dev/null; then
	fail tb_macpm plug-in-window "refused after $t s but not powered again: $(tb_state 1)"
else
	res1=$(sed -n 's/^runtime_resumes: //p' "/sys/kernel/debug/macsupport_test_nhi/$nhi/status" 2>/dev/null)
	reason=$(tb_attr 1 stay_on_reason)
	if [ -n "$res0" ] && ! [ "$res1" -gt "$res0" ]; then
		fail tb_macpm plug-in-window "powered again, NHI not resumed to look (runtime_resumes $res0 -> $res1): $(tb_state 1)"
	elif [ "$reason" != "${reason#the firmware}" ]; then
		fail tb_macpm plug-in-window "given up after one refusal: '$reason'"
	else
		pass tb_macpm plug-in-window "refused $t s after the NHI was let go (XRIL: plugged), powered again, NHI resumes ${res0:-n/a} -> ${res1:-n/a}, still managed ('$reason'); emulated: ZPLG"
	fi
fi
fw_trace_take plug-refused
tb_fw_set 1 ZPLG 0
echo 500 > /sys/module/tb_macpm/parameters/plug_hold_ms
if t=$(wait_until 40 tb_is 1 off); then
	pass tb_macpm plug-in-window-off-again "off $t s after ZPLG 0; refusals $ref0 -> $(tb_attr 1 refusals)"
else
	fail tb_macpm plug-in-window-off-again "$(tb_state 1)"
fi
fw_trace_take refused-off-again
check tb_macpm plug-in-window-no-unpowered-access [ "$(tb_unpowered "$nhi")" = 0 ]
