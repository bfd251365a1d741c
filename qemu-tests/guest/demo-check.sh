# SPDX-License-Identifier: GPL-2.0
#
# Checks what the demo (demo.sh) printed, against the live system: one
# test line per thing the demo must show. Sourced with DEMO_OUT naming the
# file that holds the demo's output, by the guest's init after "make demo"
# and by the guest test 96-demo.sh. Lines "ok|not ok MODULE demo-NAME".

demo_out=${DEMO_OUT:-/tmp/demo.out}
tr -d '\r' < "$demo_out" > /tmp/demo-check.out

# The gmux, bound to apple_gmux_ng, says so, and the demo says it is the simulator.
if gmux_simulated; then
	pnp=$(gmux_pnp)
	drv=$(readlink "$pnp/driver" 2>/dev/null)
	drv=${drv##*/}
	shown=$(grep -m 1 '^gmux: .* bound to ' /tmp/demo-check.out)
	if [ "$drv" = apple_gmux_ng ] && [ "${shown##* bound to }" = apple_gmux_ng ] &&
	   grep -q "the harness's simulated $EXPECT_GMUX_KIND gmux, TEST ONLY" /tmp/demo-check.out; then
		pass apple_gmux_ng demo-gmux-bound "$shown"
	else
		fail apple_gmux_ng demo-gmux-bound "driver '$drv'; the demo showed '${shown:-no gmux line}'"
	fi
fi

# The backlight round trip: the level set is read back and is in the
# simulator's register.
if gmux_simulated; then
	line=$(grep -m 1 '^backlight: set ' /tmp/demo-check.out)
	# shellcheck disable=SC2046 # three numbers, split on purpose
	set -- $(echo "$line" | sed -n \
		's/^backlight: set \([0-9]*\), read back \([0-9]*\), gmux register \([0-9]*\) .*/\1 \2 \3/p')
	if [ $# = 3 ] && [ "$1" = "$2" ] && [ "$2" = "$3" ]; then
		pass apple_gmux_ng demo-backlight-roundtrip "${line#backlight: }"
	else
		fail apple_gmux_ng demo-backlight-roundtrip "the demo showed '${line:-no backlight line}'"
	fi
fi

# Apple's device properties from the fake Apple firmware, as sysfs has them.
if [ "${EXPECT_APPLE_EFI:-0}" = 1 ] && [ -e /tmp/macsupport-boot-props-replugged ]; then
	skip apple_props demo-properties "an earlier test of this boot (90-debug-props-race.sh) replugged $EXPECT_APPLE_DROM_DEV, and the kernel's boot-time EFI properties (ThunderboltDROM) do not come back after a replug"
elif [ "${EXPECT_APPLE_EFI:-0}" = 1 ]; then
	drom=/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV/apple_properties/ThunderboltDROM
	line=$(grep -m 1 "^property: $EXPECT_APPLE_DROM_DEV ThunderboltDROM " /tmp/demo-check.out)
	n=$(grep -c '^property: ' /tmp/demo-check.out)
	if [ -f "$drom" ] && [ "$line" = "property: $EXPECT_APPLE_DROM_DEV ThunderboltDROM ($(wc -c \
		< "$drom") bytes)" ]; then
		pass apple_props demo-properties "$n properties shown, among them ${line#property: }"
	else
		fail apple_props demo-properties "the demo showed '${line:-no ThunderboltDROM}' ($n properties)"
	fi
fi

# GPU switching: shown when vga_switcheroo has its file, said to be missing otherwise.
if [ -e /sys/kernel/debug/vgaswitcheroo/switch ]; then
	# after DIS the discrete GPU is active; after OFF it is powered off
	if sed -n '/^echo DIS > switch:/,/^[^ ]/p' /tmp/demo-check.out |
	   grep -q -E '^  [0-9]+:DIS:\+:' &&
	   sed -n '/^echo OFF > switch:/,/^[^ ]/p' /tmp/demo-check.out |
	   grep -q -E '^  [0-9]+:DIS:.:(Off|DynOff):'; then
		pass apple_gmux_ng demo-gpu-switching "switched to the discrete GPU and back, then powered it off"
	else
		fail apple_gmux_ng demo-gpu-switching "no switch to DIS or no OFF shown: $(sed -n \
			'/^--- GPU switching/,/^---/p' /tmp/demo-check.out | tr '\n' ' ' | cut -c 1-300)"
	fi
elif grep -q '^GPU switching: not available in this build$' /tmp/demo-check.out; then
	pass apple_gmux_ng demo-gpu-switching "SKIP: no vga_switcheroo switch file in this build; the demo says so"
else
	fail apple_gmux_ng demo-gpu-switching "no switch file, and the demo did not say so"
fi

# Thunderbolt and quirk state: each module's report is shown.
for m in tb_macpm mac_quirks; do
	line=$(grep -m 1 "^$m: $EXPECT_PRODUCT" /tmp/demo-check.out)
	if [ -n "$line" ]; then
		pass "$m" demo-report "${line#"$m": }"
	else
		fail "$m" demo-report "no '$m: $EXPECT_PRODUCT...' line"
	fi
done

# mac_quirks' decisions: every line shown is what sysfs says, and at least
# one quirk applies on the demo's Mac (MacBookPro11,3: the GPE and wake quirks).
shown=$(sed -n 's/^  quirk \([a-z0-9_]*\): /\1 /p' /tmp/demo-check.out)
bad= n=0
while read -r q line; do
	[ -n "$q" ] || continue
	n=$((n + 1))
	[ "$line" = "$(cat "$QUIRKS_DIR/$q" 2>/dev/null)" ] || bad="$bad $q"
done <<EOF2
$shown
EOF2
if [ "$n" -ge 1 ] && [ -z "$bad" ] && echo "$shown" | grep -q ' applied: '; then
	pass mac_quirks demo-decisions "$n decisions shown, as in sysfs: $(echo "$shown" | cut -d: -f1 | tr '\n' ' ')"
else
	fail mac_quirks demo-decisions "$n shown, differing from sysfs:${bad:- none}, applied: $(echo "$shown" | grep -c ' applied: ')"
fi

# The emulated Thunderbolt controller: the demo's last line about it is
# what sysfs says (no power-up or -down since), after at least one cycle.
if [ -n "${EXPECT_TB_NHI:-}" ] && [ "${EXPECT_APPLE:-0}" = 1 ]; then
	line=$(grep -m 1 '^  power_state ' /tmp/demo-check.out)
	cycles=$(echo "$line" | sed -n 's/.*power_cycles \([0-9]*\),.*/\1/p')
	if [ "${line%%,*}" = "  power_state $(tb_attr 1 power_state)" ] &&
	   [ "$cycles" = "$(tb_attr 1 power_cycles)" ] && [ "${cycles:-0}" -ge 1 ]; then
		pass tb_macpm demo-power "${line#  }"
	else
		fail tb_macpm demo-power "the demo showed '$line'; sysfs: $(tb_state 1)"
	fi
fi

# Nothing a user would take for a fault.
bad=$(grep -i -E 'failed to load|not loaded$|not bound$| error |cannot|refused|rejected' \
	/tmp/demo-check.out | head -n 3 | tr '\n' '|')
if [ -z "$bad" ]; then
	pass bundle demo-no-fault-lines "$(wc -l < /tmp/demo-check.out) lines"
else
	fail bundle demo-no-fault-lines "$bad"
fi
