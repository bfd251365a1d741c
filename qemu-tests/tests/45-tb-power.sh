# SPDX-License-Identifier: GPL-2.0
#
# The first Thunderbolt controller of the profile, idle, is powered down
# within its delays; a plug (its XRIN GPE, raised for real by the host)
# powers it up, a device hot-added under a downstream port is enumerated by
# pciehp, and once it is gone the controller goes off again. Thunderbolt 3
# (no XRIN): stays on and says why.
# Emulated: the controller's power is the SSDT's TPWR (XRPE/TRPE), "plugged"
# its TPLG (XRIL), the GPE is one QEMU raises (vmgenid: 0x05, CPU hot-add:
# 0x02) instead of the real pin's; the stand-in NHI driver behaves as
# thunderbolt.ko does for runtime PM. QEMU's devices keep their config space
# when "unpowered": the stand-in checks that no driver callback ran while
# TPWR was 0 ("unpowered" must stay 0).

[ "${EXPECT_APPLE:-0}" = 1 ] && [ -n "${EXPECT_TB_NHI:-}" ] || return 0

tb_load
nhi=$(tb_nth "$EXPECT_TB_NHI" 1)
tb_fast "$nhi"

if [ "$(tb_nth "$EXPECT_TB_GPE_SOURCE" 1)" = none ]; then
	sleep 3
	reason=$(tb_attr 1 stay_on_reason)
	case "$reason" in
	*"Thunderbolt 3"*XRIN*)
		if tb_is 1 on && [ "$(tb_fw 1 TCOF)" = 0 ]; then
			pass tb_macpm tb3-stays-on "no XRIN: '$reason'; NHI $(cat /sys/bus/pci/devices/$nhi/power/runtime_status)"
		else
			fail tb_macpm tb3-stays-on "$(tb_state 1)"
		fi ;;
	*) fail tb_macpm tb3-stays-on "stay_on_reason '$reason'" ;;
	esac
	return 0
fi

cof0=$(tb_fw 1 TCOF)
if t=$(wait_until 20 tb_is 1 off); then
	chain=
	for p in $(tb_chain "$nhi"); do
		chain="$chain $p:$(cat /sys/bus/pci/devices/$p/power_state)"
	done
	case "$chain" in
	*D0*|*D3hot*) fail tb_macpm idle-off "off after $t s but devices not D3cold:$chain" ;;
	*) pass tb_macpm idle-off "off $t s after load (delays: NHI and switch ${TB_FAST_MS} ms), XRPE/TRPE(0) calls $cof0 -> $(tb_fw 1 TCOF), devices:$chain" ;;
	esac
else
	fail tb_macpm idle-off "not off after 20 s: $(tb_state 1)"
	return 0
fi

# a plug: XRIL says "plugged", then the GPE
wakes0=$(tb_attr 1 gpe_wakes)
tb_fw_set 1 TPLG 1
tb_raise 1
if t=$(wait_until 15 tb_is 1 on); then
	pass tb_macpm plug-powers-on "on $t s after the GPE, last_wake_ms $(tb_attr 1 last_wake_ms), gpe_wakes $wakes0 -> $(tb_attr 1 gpe_wakes), NHI $(cat /sys/bus/pci/devices/$nhi/power/runtime_status)"
else
	fail tb_macpm plug-powers-on "$(tb_state 1); gpe: $(cat /sys/firmware/acpi/interrupts/gpe$(tb_gpe 1) 2>/dev/null)"
	tb_fw_set 1 TPLG 0
	return 0
fi

# the tunnel's device appears under a downstream port: pciehp enumerates it
dsb=$(tb_nth "$EXPECT_TB_DSB" 1)
req='{"execute":"device_add","arguments":{"driver":"pci-testdev","id":"tbdev1","bus":"'$dsb'"}}'
if ! ans=$(host_request "$req"); then
	fail tb_macpm plug-enumerated "device_add: $ans"
elif t=$(wait_until 15 tb_find_dev 1b36:0005 "$nhi"); then
	pass tb_macpm plug-enumerated "pci-testdev under $dsb enumerated by pciehp in $t s: $(tb_find_dev 1b36:0005 "$nhi")"
	host_request '{"execute":"device_del","arguments":{"id":"tbdev1"}}' > /dev/null
	wait_until 20 tb_no_dev 1b36:0005 "$nhi" > /dev/null
else
	fail tb_macpm plug-enumerated "nothing under $dsb after 15 s; $(tb_state 1)"
fi
tb_fw_set 1 TPLG 0
if t=$(wait_until 30 tb_is 1 off); then
	pass tb_macpm unplug-off-again "off again $t s after the device left; unpowered driver callbacks: $(tb_unpowered "$nhi")"
else
	fail tb_macpm unplug-off-again "$(tb_state 1)"
fi
check tb_macpm no-unpowered-access [ "$(tb_unpowered "$nhi")" = 0 ]
