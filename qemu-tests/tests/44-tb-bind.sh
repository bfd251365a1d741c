# SPDX-License-Identifier: GPL-2.0
#
# tb_macpm takes every emulated Thunderbolt controller whose NHI's ACPI scope
# has Apple's power methods, and nothing else: per controller a power switch
# in /sys/class/tb_macpm named after the NHI, the methods the firmware has,
# the upstream port a runtime-PM consumer of the switch, each hotplug
# downstream port a consumer of the NHI, DSB0 (an ancestor of the NHI) not.
# On Macs without Thunderbolt and on the control machine: nothing.
# Emulated: the NHI is QEMU's edu device behind QEMU's PCIe switch ports,
# taken through the TEST ONLY parameter test_nhi_id; the methods are the
# real tables' shapes in an SSDT. Real: ACPI evaluation, device links,
# runtime PM, the PCI core.

tb_load

if [ "${EXPECT_APPLE:-0}" != 1 ]; then
	if lsmod | grep -q '^tb_macpm '; then
		fail tb_macpm inert-on-non-apple "loaded on a non-Apple machine"
	else
		pass tb_macpm inert-on-non-apple "refused to load; controllers with Apple's methods in the tables: $(echo $EXPECT_TB_NHI | wc -w)"
	fi
	return 0
fi

if [ -z "${EXPECT_TB_NHI:-}" ]; then
	n=$(ls "$TB_CLASS" 2>/dev/null | wc -l)
	check tb_macpm no-controller [ "$n" -eq 0 ]
	return 0
fi

i=0
for nhi in $EXPECT_TB_NHI; do
	i=$((i + 1))
	d=$TB_CLASS/$nhi
	if [ ! -d "$d" ]; then
		fail tb_macpm "bind-$nhi" "no $d; dmesg: $(dmesg | grep tb_macpm | tail -3 | tr '\n' ' ')"
		continue
	fi
	want=$(tb_item "$EXPECT_TB_METHODS" "$i")
	got=$(cat "$d/methods")
	upsb=$(basename "$(readlink -f /sys/bus/pci/devices/$nhi/../..)")
	dsb0=$(basename "$(readlink -f /sys/bus/pci/devices/$nhi/..)")
	rp=$(basename "$(readlink -f "$d/..")")
	if [ "$got" = "$want" ] && [ "$(cat "$d/nhi")" = "$nhi" ] &&
	   [ -e "/sys/class/devlink/tb_macpm:$nhi--pci:$upsb" ]; then
		pass tb_macpm "bind-$nhi" "methods '$got', $(cat "$d/generation"), switch below $rp, consumer $upsb"
	else
		fail tb_macpm "bind-$nhi" "methods '$got' (want '$want'), links: $(ls /sys/class/devlink | grep -e tb_macpm -e "$nhi" | tr '\n' ' ')"
	fi
	# no driver on the NHI (Eagle Ridge): runtime PM forbidden by default,
	# the controller stays on and says why (test 45 allows it, as a power
	# tool would)
	if [ "${EXPECT_TB_NHI_DRIVER:-}" = none ]; then
		why=$(cat "$d/stay_on_reason")
		case "$why" in
		*power/control*) pass tb_macpm "no-driver-reason-$nhi" "NHI without a driver, control '$(cat /sys/bus/pci/devices/$nhi/power/control)': '$why'" ;;
		*) fail tb_macpm "no-driver-reason-$nhi" "stay_on_reason '$why', driver '$(basename "$(readlink /sys/bus/pci/devices/$nhi/driver)")', control '$(cat /sys/bus/pci/devices/$nhi/power/control)'" ;;
		esac
	fi
	# hotplug ports: consumers of the NHI; DSB0 never
	ports=
	bad=
	for p in /sys/bus/pci/devices/$upsb/*/; do
		p=$(basename "$p")
		case "$p" in ????:??:??.?) ;; *) continue ;; esac
		[ "$p" = "$dsb0" ] && continue
		if [ -e "/sys/class/devlink/pci:$nhi--pci:$p" ]; then
			ports="$ports $p"
		else
			bad="$bad $p"
		fi
	done
	if [ -n "$ports" ] && [ -z "$bad" ] && [ ! -e "/sys/class/devlink/pci:$nhi--pci:$dsb0" ]; then
		pass tb_macpm "port-links-$nhi" "consumers of the NHI:$ports; $dsb0 (DSB0, an ancestor) not linked"
	else
		fail tb_macpm "port-links-$nhi" "linked:${ports:- none}; not linked:${bad:- none}"
	fi
done
n=$(ls "$TB_CLASS" | wc -l)
check tb_macpm only-listed-controllers [ "$n" -eq "$(echo $EXPECT_TB_NHI | wc -w)" ]
