# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when TEST_QUIRKS_BOOT append acpi_no_static_ssdt
#
# A quirk whose objects this machine does not have cannot occur: mac_quirks
# says "not-applicable" and what is missing, not "failed" (which asks the
# user to act), and macsupport-report exits 0, not 4.
#
# Emulated: the profile's MacBookPro11,x identity without its SSDT
# (quirks.asl, the only one: XHC1's and LID0's _PRW, _L06), which
# acpi_no_static_ssdt keeps from loading, as on a MacBookPro11,x whose
# firmware declares neither wake device. The model's wake row matches, its
# devices are absent. GPE 0x06 is q35's own and exists without the SSDT:
# gpe_storm still masks it (applied), an action that is tried and takes
# effect.

QDIR=$QUIRKS_DIR
wake_before=$(cat /proc/acpi/wakeup)
ssdts=$(ls /sys/firmware/acpi/tables 2>/dev/null | grep '^SSDT' | tr '\n' ' ')
present=
for w in ${EXPECT_WAKE_DISABLED:-}; do
	[ -n "$(wake_lines "$w")" ] && present="$present $w"
done
if [ -n "$ssdts" ] || [ -n "$present" ] || [ -z "${EXPECT_WAKE_DISABLED:-}" ]; then
	fail mac_quirks absent-wake-devices "$PROFILE: acpi_no_static_ssdt: SSDTs '$ssdts', wake devices present:${present:- none} (want none of '${EXPECT_WAKE_DISABLED:-}')"
	return 0
fi

dmesg_mark quirks-absent
if ! quirks_load 2>/tmp/err; then
	fail mac_quirks absent-wake-devices "$PROFILE: modprobe failed: $(cat /tmp/err)"
	return 0
fi
log=$(dmesg_since quirks-absent)
line=$(cat "$QDIR/wake_sources" 2>/dev/null)
states=$(for f in "$QDIR"/*; do printf '%s=%s ' "${f##*/}" "$(quirk_state "${f##*/}")"; done)

# The row's devices, named as /proc/acpi/wakeup names them, and what is missing
why=
case "$line" in
"not-applicable: "*) ;;
*) why="$why state is not not-applicable;" ;;
esac
for w in $EXPECT_WAKE_DISABLED; do
	echo "$line" | grep -q "$w" || why="$why the reason does not name $w;"
done
echo "$line" | grep -q 'not wake devices here' || why="$why the reason does not say they are absent;"
echo "$log" | grep -q -F "mac_quirks: wake_sources: $line" || why="$why no log line '$line';"
echo "$states" | grep -q '=failed ' && why="$why a quirk failed: $states;"
if [ -z "$why" ]; then
	pass mac_quirks absent-wake-devices "$PROFILE, no SSDT (no XHC1/LID0 _PRW): '$line'"
else
	fail mac_quirks absent-wake-devices "$PROFILE:$why '$line'; $states"
fi

# The storm row's GPE exists: it is masked as in the shared boot
st=$(quirk_state gpe_storm)
if [ "$st" = "$(quirk_expected gpe_storm)" ]; then
	pass mac_quirks absent-gpe-present "$PROFILE, q35's GPE without the SSDT's _L06: gpe_storm $st: $(cut -c 1-100 "$QDIR/gpe_storm")"
else
	fail mac_quirks absent-gpe-present "$PROFILE: gpe_storm '$st', want '$(quirk_expected gpe_storm)': $(cat "$QDIR/gpe_storm")"
fi

# macsupport-report: nothing for the user to do about what cannot occur
if macsupport-report > /tmp/report.txt 2> /tmp/report.err; then rc=0; else rc=$?; fi
if macsupport-report --json > /tmp/report.json 2>> /tmp/report.err; then jrc=0; else jrc=$?; fi
compact=$(tr -d ' \n' < /tmp/report.json)
why=
[ "$rc" = 0 ] && [ "$jrc" = 0 ] || why="$why exit $rc, --json exit $jrc (want 0);"
grep -q -x -F "  wake_sources: $line" /tmp/report.txt || why="$why the text lacks '  wake_sources: $line';"
case "$compact" in
*'"name":"wake_sources","state":"not-applicable",'*) ;;
*) why="$why JSON state of wake_sources is not not-applicable;" ;;
esac
sed -n '/^What you can do$/,$p' /tmp/report.txt | grep -q wake_sources &&
	why="$why wake_sources among what the user can do;"
if [ -z "$why" ]; then
	pass macsupport-report absent-not-action "$PROFILE, no wake devices: exit 0: $(sed -n '/^Summary$/{n;p;}' /tmp/report.txt | sed 's/^ *//')"
else
	fail macsupport-report absent-not-action "$PROFILE:$why $(head -c 200 /tmp/report.err)"
fi
json_check macsupport-report absent-report-json /tmp/report.json

rmmod mac_quirks
if [ "$(cat /proc/acpi/wakeup)" = "$wake_before" ]; then
	pass mac_quirks absent-unload "$PROFILE: /proc/acpi/wakeup as before the module loaded"
else
	fail mac_quirks absent-unload "$PROFILE: /proc/acpi/wakeup changed"
fi
