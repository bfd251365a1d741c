# SPDX-License-Identifier: GPL-2.0
#
# tb_macpm takes every emulated Thunderbolt controller whose NHI's ACPI scope
# has Apple's power methods, and nothing else: per controller a power switch
# in /sys/class/tb_macpm named after the NHI, the methods the firmware has,
# the upstream port a runtime-PM consumer of the switch (Thunderbolt 3's
# votes: the root port, and a vote device below DSB0 and DSB2 that the NHI
# and the xHCI consume), each hotplug
# downstream port a consumer of the NHI, DSB0 (an ancestor of the NHI) not;
# how the firmware switches the power and reports a plug (on Thunderbolt 3,
# the GPE found by walking the SSDTs' AML for the root port's scope).
# On Macs without Thunderbolt and on the control machine: nothing.
# Emulated: the NHI is QEMU's edu device behind QEMU's PCIe switch ports,
# taken through the TEST ONLY parameter test_nhi_id; the methods are the
# real tables' shapes in an SSDT. Real: ACPI evaluation, device links,
# runtime PM, the PCI core.

dmesg_mark tb-bind
tb_load

if [ "${EXPECT_APPLE:-0}" != 1 ]; then
	# the control declares Apple's methods in an NHI's scope: still nothing
	acpi=
	for nhi in ${EXPECT_TB_NHI:-}; do
		acpi="$acpi $(cat /sys/bus/pci/devices/$nhi/firmware_node/path 2>/dev/null)"
	done
	if lsmod | grep -q '^tb_macpm '; then
		fail tb_macpm inert-with-apple-methods "loaded on a non-Apple machine"
	elif [ "${acpi# }" != "${EXPECT_TB_ACPI:-}" ]; then
		fail tb_macpm inert-with-apple-methods "NHI ACPI companions '${acpi# }', want '${EXPECT_TB_ACPI:-}'"
	elif [ -n "$(dmesg | grep -i 'tb_macpm.*\(warn\|error\|fail\|bug\)')" ]; then
		fail tb_macpm inert-with-apple-methods "$(dmesg | grep tb_macpm | tail -2 | tr '\n' ' ')"
	else
		pass tb_macpm inert-with-apple-methods "refused to load; NHIs with Apple's methods in their scope: $(echo ${EXPECT_TB_NHI:-} | wc -w) (${acpi# })"
	fi
	return 0
fi

# firmware without some of Apple's methods: not taken, why said once, the
# power method never called
if [ -n "${EXPECT_TB_NOBIND:-}" ]; then
	nhi=$EXPECT_TB_NOBIND
	logged=$(dmesg | grep -c "$nhi: Thunderbolt NHI .*: $EXPECT_TB_NOBIND_WHY in its ACPI companion: not managed")
	calls=$(tb_eval "$EXPECT_TB_NOBIND_ACPI.ZCON")$(tb_eval "$EXPECT_TB_NOBIND_ACPI.ZCOF")
	if [ -d "$TB_CLASS/$nhi" ]; then
		fail tb_macpm "methods-missing-no-bind" "$nhi taken: methods '$(cat "$TB_CLASS/$nhi/methods")'"
	elif [ "$logged" != 1 ] || [ "$calls" != 00 ]; then
		fail tb_macpm "methods-missing-no-bind" "reason logged $logged time(s) (want 1), XRPE(1)/XRPE(0) calls '$calls' (want 00): $(dmesg | grep "$nhi" | tail -2 | tr '\n' ' ')"
	else
		pass tb_macpm "methods-missing-no-bind" "$nhi not taken, said once: '$EXPECT_TB_NOBIND_WHY'; XRPE never called"
	fi
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
	rp=$(basename "$(readlink -f "/sys/bus/pci/devices/$upsb/..")")
	# the switch's device below its parent's class glue directory "tb_macpm"
	parent=$(basename "$(readlink -f "$d/../..")")
	xhci=$(tb_find_dev 1b36:000d "$nhi")
	if tb_votes "$i"; then
		# Thunderbolt 3's votes: the switch supplies the root port (a
		# sibling of it), each vote supplies its function
		consumer=$rp
		votes="vote devices $(ls -d /sys/bus/pci/devices/$dsb0/$nhi-nhi-vote \
			${xhci:+/sys/bus/pci/devices/$xhci/../$nhi-xhci-vote} 2>/dev/null | wc -l)"
		links_ok() {
			[ -e "/sys/class/devlink/:$nhi-nhi-vote--pci:$nhi" ] &&
			{ [ -z "$xhci" ] || [ -e "/sys/class/devlink/:$nhi-xhci-vote--pci:$xhci" ]; } &&
			[ "$parent" = "$(basename "$(readlink -f "/sys/bus/pci/devices/$rp/..")")" ]
		}
	else
		consumer=$upsb
		votes="no votes"
		links_ok() { [ "$parent" = "$rp" ]; }
	fi
	if [ "$got" = "$want" ] && [ "$(cat "$d/nhi")" = "$nhi" ] &&
	   [ -e "/sys/class/devlink/tb_macpm:$nhi--pci:$consumer" ] && links_ok; then
		pass tb_macpm "bind-$nhi" "methods '$got', $(cat "$d/generation"), switch below $parent, consumer $consumer, $votes"
	else
		fail tb_macpm "bind-$nhi" "methods '$got' (want '$want'), links: $(ls /sys/class/devlink | grep -e tb_macpm -e "$nhi" | tr '\n' ' ')"
	fi
	# how the firmware switches the power and reports a plug: XRPE/TRPE
	# and XRIN on Thunderbolt 1 and 2; on Thunderbolt 3 the RTPC votes
	# and the GPE of the root port's own Scope (\_GPE)
	want=$(tb_item "${EXPECT_TB_MECHANISM:-}" "$i")
	[ -n "$want" ] || want=$(tb_item "$EXPECT_TB_METHODS" "$i" | cut -d' ' -f1)
	want_plug=$(tb_item "${EXPECT_TB_PLUG:-}" "$i")
	if [ -z "$want_plug" ]; then
		xrin=$(tb_item "$EXPECT_TB_METHODS" "$i" | sed -n 's/.*XRIN=\(0x[0-9a-f]*\).*/\1/p')
		want_plug="GPE $xrin (XRIN)"
	fi
	got=$(cat "$d/mechanism" 2>/dev/null)
	plug=$(cat "$d/plug_source" 2>/dev/null)
	case "$plug" in
	"$want_plug"*)
		if [ "$got" = "$want" ]; then
			pass tb_macpm "firmware-$nhi" "mechanism '$got', plug source '$plug'"
		else
			fail tb_macpm "firmware-$nhi" "mechanism '$got' (want '$want')"
		fi ;;
	*) fail tb_macpm "firmware-$nhi" "plug source '$plug' (want '$want_plug...'), mechanism '$got'" ;;
	esac
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
	# hotplug ports (pciehp's service below them): consumers of the NHI;
	# DSB0 never, nor a port without hotplug (Thunderbolt 3's xHCI port)
	ports=
	bad=
	plain=
	for p in /sys/bus/pci/devices/$upsb/*/; do
		p=$(basename "$p")
		case "$p" in ????:??:??.?) ;; *) continue ;; esac
		[ "$p" = "$dsb0" ] && continue
		if ! ls -d "/sys/bus/pci/devices/$p/$p:pcie"?04 > /dev/null 2>&1; then
			[ -e "/sys/class/devlink/pci:$nhi--pci:$p" ] && bad="$bad $p(no hotplug)"
			plain="$plain $p"
		elif [ -e "/sys/class/devlink/pci:$nhi--pci:$p" ]; then
			ports="$ports $p"
		else
			bad="$bad $p"
		fi
	done
	if [ -n "$ports" ] && [ -z "$bad" ] && [ ! -e "/sys/class/devlink/pci:$nhi--pci:$dsb0" ]; then
		pass tb_macpm "port-links-$nhi" "consumers of the NHI:$ports; $dsb0 (DSB0, an ancestor)${plain:+ and$plain (no hotplug)} not linked"
	else
		fail tb_macpm "port-links-$nhi" "linked:${ports:- none}; not linked:${bad:- none}"
	fi
done
n=$(ls "$TB_CLASS" | wc -l)
check tb_macpm only-listed-controllers [ "$n" -eq "$(echo $EXPECT_TB_NHI | wc -w)" ]
# taking the plug GPEs over from the firmware's methods (QEMU's _E02 for
# CPU hotplug here) draws no ACPICA complaint (e.g. a level/edge mismatch)
acpi=$(dmesg_since tb-bind | grep -E 'ACPI (Warning|Error|BIOS Error)' | head -n 2 | tr '\n' ' ')
if [ -z "$acpi" ]; then
	pass tb_macpm gpe-handlers-quiet "GPEs with a tb_macpm handler (XRIN, Alpine Ridge's level one): $(cat "$TB_CLASS"/*/plug_source | sed -n -e 's/^GPE \(0x[0-9a-f]*\) (XRIN).*/\1/p' -e 's/^GPE \(0x[0-9a-f]*\), level.*/\1/p' | tr '\n' ' ')"
else
	fail tb_macpm gpe-handlers-quiet "$acpi"
fi
