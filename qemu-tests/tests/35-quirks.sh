# SPDX-License-Identifier: GPL-2.0
#
# mac_quirks: on each profile exactly the quirks it expects (EXPECT_QUIRKS)
# are decided other than "not-applicable", with the state it expects; a GPE
# it masks is masked in /sys/firmware/acpi/interrupts, a wake source it
# turns off is off in /proc/acpi/wakeup, a range it reserves is in
# /proc/iomem; rmmod undoes all of it. disable= keeps single quirks off.
# On the control machine it does not load and changes nothing.
#
# Emulation limits: QEMU has no Apple or Broadcom PCI parts, so a profile
# names QEMU devices that stand in for them (QUIRKS_TEST_ARGS, TEST ONLY
# test_pci_alias=). The GPEs are QEMU's q35 GPEs of the same numbers, which
# nothing raises: that a storm stops cannot be shown, only that the GPE is
# masked.

snap_gpes()
{
	for _g in ${EXPECT_GPE_MASKED:-}; do echo "$_g $(gpe_line "$_g")"; done
}

if [ "$EXPECT_APPLE" != 1 ]; then
	before=$(cat /proc/acpi/wakeup; grep -H . /sys/firmware/acpi/interrupts/gpe?? 2>/dev/null | grep -c ' masked')
	if quirks_load 2>/tmp/err; then
		fail mac_quirks nothing-on-control "$PROFILE: mac_quirks loaded on a non-Apple machine"
		rmmod mac_quirks
	elif [ -e /sys/devices/platform/mac_quirks ]; then
		fail mac_quirks nothing-on-control "$PROFILE: /sys/devices/platform/mac_quirks exists"
	elif [ "$before" != "$(cat /proc/acpi/wakeup; grep -H . /sys/firmware/acpi/interrupts/gpe?? 2>/dev/null | grep -c ' masked')" ]; then
		fail mac_quirks nothing-on-control "$PROFILE: wake sources or GPE masks changed"
	else
		pass mac_quirks nothing-on-control "$PROFILE: refused to load ($(head -n 1 /tmp/err | cut -c 1-80)), nothing applied, wake and GPEs unchanged"
	fi
	return 0
fi

# --- load: the decisions --------------------------------------------------------

wake_before=$(cat /proc/acpi/wakeup)
gpes_before=$(snap_gpes)
for g in ${EXPECT_GPE_MASKED:-}; do
	case "$(gpe_line "$g")" in
	*unmasked*) ;;
	*) fail mac_quirks gpe-masked "$PROFILE: GPE $g is not unmasked before mac_quirks loads: '$(gpe_line "$g")'" ;;
	esac
done
for w in ${EXPECT_WAKE_DISABLED:-}; do
	[ -n "$(wake_lines "$w")" ] ||
		fail mac_quirks wake-disabled "$PROFILE: $w is not in /proc/acpi/wakeup before mac_quirks loads"
done

dmesg_mark quirks-load
if ! quirks_load 2>/tmp/err; then
	fail mac_quirks load "$PROFILE: modprobe failed: $(cat /tmp/err)"
	return 0
fi
log=$(dmesg_since quirks-load)

bad= got=
for q in $QUIRK_NAMES; do
	want=$(quirk_expected "$q")
	st=$(quirk_state "$q")
	[ "$st" = not-applicable ] || got="$got $q=$st"
	if [ "$st" != "$want" ]; then
		bad="$bad $q=$st (want $want: $(cut -c 1-120 "$QUIRKS_DIR/$q"))"
	elif [ "$st" != not-applicable ] && ! echo "$log" | grep -q "mac_quirks: $q: $st: "; then
		bad="$bad $q: no log line for it"
	fi
done
extra=$(ls "$QUIRKS_DIR" | grep -v -x -F "$(echo $QUIRK_NAMES | tr ' ' '\n')")
if [ -n "$bad" ] || [ -n "$extra" ]; then
	fail mac_quirks expected-quirks "$PROFILE:$bad${extra:+ unknown files: $extra}"
else
	pass mac_quirks expected-quirks "$PROFILE:${got:- none}; every other quirk not-applicable"
fi

if [ "${EXPECT_MODEL_UNKNOWN:-0}" = 1 ]; then
	if echo "$log" | grep -q "mac_quirks: $EXPECT_PRODUCT (board .*): unknown model"; then
		pass mac_quirks unknown-model "$PROFILE: loads, says 'unknown model', decides the quirks that need no model"
	else
		fail mac_quirks unknown-model "$PROFILE: no 'unknown model' line: $(echo "$log" | grep mac_quirks | head -n 1)"
	fi
fi

# --- what was applied is really there --------------------------------------------

for g in ${EXPECT_GPE_MASKED:-}; do
	line=$(gpe_line "$g")
	case "$line" in
	*unmasked*|"") fail mac_quirks gpe-masked "$PROFILE: gpe$g after load: '$line'" ;;
	*masked*) pass mac_quirks gpe-masked "$PROFILE: /sys/firmware/acpi/interrupts/gpe$g:$(echo "$line" | tr -s ' ')" ;;
	esac
done

for w in ${EXPECT_WAKE_DISABLED:-}; do
	lines=$(wake_lines "$w")
	if [ -z "$lines" ] || echo "$lines" | grep -q enabled; then
		fail mac_quirks wake-disabled "$PROFILE: /proc/acpi/wakeup after load: '$lines'"
	else
		was=$(echo "$wake_before" | awk -v n="$w" '$1 == n { print $3 }' | head -n 1)
		pass mac_quirks wake-disabled "$PROFILE: $(echo "$lines" | tr -s ' \t' ' ') (before: $was)"
	fi
done
# The test means something only if a wake source was on before: LID0 is (the button driver)
if [ -n "${EXPECT_WAKE_DISABLED:-}" ] && ! echo "$wake_before" | grep -q '\*enabled'; then
	fail mac_quirks wake-disabled "$PROFILE: no listed wake source was enabled before the module loaded"
fi

if [ "$(quirk_expected mbp_poweroff_window)" = applied ]; then
	if grep -q '7fa00000-7fbfffff : mac_quirks: poweroff window' /proc/iomem; then
		pass mac_quirks poweroff-window-reserved "$PROFILE: /proc/iomem: 7fa00000-7fbfffff : mac_quirks: poweroff window"
	else
		fail mac_quirks poweroff-window-reserved "$PROFILE: no reservation in /proc/iomem"
	fi
fi

# --- rmmod undoes it ---------------------------------------------------------------

if ! rmmod mac_quirks 2>/tmp/err; then
	fail mac_quirks unload-undoes "$PROFILE: rmmod: $(cat /tmp/err)"
	return 0
fi
why=
[ -e /sys/devices/platform/mac_quirks ] && why="$why platform device left;"
[ "$(cat /proc/acpi/wakeup)" = "$wake_before" ] || why="$why /proc/acpi/wakeup differs;"
[ "$(snap_gpes)" = "$gpes_before" ] || why="$why GPE state differs: $(snap_gpes | tr '\n' ' ');"
grep -q 'mac_quirks: poweroff window' /proc/iomem && why="$why the reservation stayed;"
if [ -n "$why" ]; then
	fail mac_quirks unload-undoes "$PROFILE:$why"
else
	pass mac_quirks unload-undoes "$PROFILE: wake sources, GPE masks and /proc/iomem as before the module loaded"
fi

# --- disable= ----------------------------------------------------------------------

# Turn off every quirk that applies here, plus a name that does not exist.
off=$(for q in ${EXPECT_QUIRKS:-}; do printf '%s,' "${q%%=*}"; done)
dmesg_mark quirks-disable
if ! quirks_load "disable=${off}no_such_quirk" 2>/tmp/err; then
	fail mac_quirks disable-param "$PROFILE: modprobe disable=: $(cat /tmp/err)"
	return 0
fi
bad=
for q in $QUIRK_NAMES; do
	want=not-applicable
	[ "$(quirk_expected "$q")" != not-applicable ] && want=disabled
	st=$(quirk_state "$q")
	[ "$st" = "$want" ] || bad="$bad $q=$st (want $want)"
done
[ "$(snap_gpes)" = "$gpes_before" ] || bad="$bad GPEs changed: $(snap_gpes | tr '\n' ' ');"
[ "$(cat /proc/acpi/wakeup)" = "$wake_before" ] || bad="$bad /proc/acpi/wakeup changed;"
grep -q 'mac_quirks: poweroff window' /proc/iomem && bad="$bad range reserved;"
dmesg_since quirks-disable | grep -q 'disable=: no quirk is called "no_such_quirk"; ignoring it' ||
	bad="$bad no warning about no_such_quirk;"
if [ -n "$bad" ]; then
	fail mac_quirks disable-param "$PROFILE:$bad"
else
	pass mac_quirks disable-param "$PROFILE: disable=${off}no_such_quirk: those quirks 'disabled', nothing applied, the unknown name logged and ignored"
fi
rmmod mac_quirks
