# SPDX-License-Identifier: GPL-2.0
#
# tools/macsupport-report in the guest, after loading every bundle module
# that loads (on the control machine none does): the text names the
# profile's product; an Apple machine whose model the table does not know
# (EXPECT_MODEL_UNKNOWN=1) is an "unknown model" (exit 3, or 4 when a quirk
# needs action), the control machine "not an Apple machine" (exit 2), a
# known Mac exits 0, or 4 exactly when a quirk is cannot-apply or failed;
# the modules it calls loaded are those in /sys/module; the quirk states it
# reports are those in /sys/devices/platform/mac_quirks/quirks/*; the host
# validates its --json against Documentation/macsupport-report.schema.json
# (json_check).

QDIR=/sys/devices/platform/mac_quirks/quirks
loaded_here=

# Load what loads; remember what this test loaded, to unload it at the end.
for m in $BUNDLE_MODULES; do
	[ -d "/sys/module/$m" ] && continue
	case $m in
	apple_gmux_ng) gmux_load > /dev/null 2>&1 ;;
	mac_quirks) quirks_load > /dev/null 2>&1 ;;
	*) modprobe "$m" > /dev/null 2>&1 ;;
	esac
	[ -d "/sys/module/$m" ] && loaded_here="$m $loaded_here"
done

if macsupport-report > /tmp/report.txt 2> /tmp/report.err; then rc=0; else rc=$?; fi
if macsupport-report --json > /tmp/report.json 2>> /tmp/report.err; then jrc=0; else jrc=$?; fi
in_order=$(for m in $BUNDLE_MODULES; do [ -d "/sys/module/$m" ] && printf '%s ' "$m"; done)

if [ "$rc" -le 4 ] && [ "$rc" != 1 ] && [ "$jrc" = "$rc" ] && [ ! -s /tmp/report.err ] &&
   [ -s /tmp/report.txt ] && [ -s /tmp/report.json ]; then
	pass macsupport-report report-runs "exit $rc (text and JSON); loaded: ${in_order:-none}"
else
	fail macsupport-report report-runs "exit $rc, --json exit $jrc, stderr '$(head -c 200 /tmp/report.err | tr '\n' ' ')'"
fi

# The product, as DMI gives it
if grep -q -F -- "$EXPECT_PRODUCT" /tmp/report.txt; then
	pass macsupport-report report-product "$(grep -m 1 '^  model:' /tmp/report.txt | sed 's/^  model: *//')"
else
	fail macsupport-report report-product "no '$EXPECT_PRODUCT' in: $(head -c 300 /tmp/report.txt | tr '\n' '|')"
fi

# The quirks that need the user's action, from mac_quirks's files
action=0
if [ -d "$QDIR" ]; then
	for f in "$QDIR"/*; do
		[ -f "$f" ] || continue
		case "$(head -n 1 "$f")" in
		cannot-apply:*|failed:*) action=1 ;;
		esac
	done
fi

# The verdict and the exit status
verdict=$(sed -n '/^Summary$/{n;p;}' /tmp/report.txt | sed 's/^ *//')
if [ "${EXPECT_APPLE:-0}" = 0 ]; then
	if [ "$rc" = 2 ] && grep -q 'not an Apple machine' /tmp/report.txt &&
	   tr -d ' \n' < /tmp/report.json | grep -q '"status":"not-apple","exit_code":2,' &&
	   tr -d ' \n' < /tmp/report.json | grep -q '"apple":false'; then
		pass macsupport-report report-verdict "exit 2: $verdict"
	else
		fail macsupport-report report-verdict "exit $rc, want 2 and 'not an Apple machine': $verdict"
	fi
elif [ "${EXPECT_MODEL_UNKNOWN:-0}" = 1 ]; then
	want=3
	[ "$action" = 1 ] && want=4
	if [ "$rc" = "$want" ] && grep -q '^  model: *unknown model' /tmp/report.txt &&
	   tr -d ' \n' < /tmp/report.json | grep -q '"known":false'; then
		pass macsupport-report report-verdict "exit $rc: $(grep -m 1 '^  model:' /tmp/report.txt | sed 's/^  model: *//')"
	else
		fail macsupport-report report-verdict "exit $rc, want $want and 'unknown model': $(grep -m 1 '^  model:' /tmp/report.txt)"
	fi
else
	want=0
	[ "$action" = 1 ] && want=4
	if [ "$rc" = "$want" ] && ! grep -q 'unknown model' /tmp/report.txt &&
	   tr -d ' \n' < /tmp/report.json | grep -q '"known":true'; then
		pass macsupport-report report-verdict "exit $rc: $verdict"
	else
		fail macsupport-report report-verdict "exit $rc, want $want (a quirk needs action: $action): $verdict"
	fi
fi

# Every module the report calls loaded is in /sys/module, and the reverse
bad=
compact=$(tr -d ' \n' < /tmp/report.json)
for m in $BUNDLE_MODULES; do
	if [ -d "/sys/module/$m" ]; then sys=true; else sys=false; fi
	if grep -q "^  $m  *loaded" /tmp/report.txt; then txt=true
	elif grep -q "^  $m  *not loaded\$" /tmp/report.txt; then txt=false
	else txt=missing; fi
	case "$compact" in
	*"\"name\":\"$m\",\"loaded\":$sys,"*) js=$sys ;;
	*) js=wrong ;;
	esac
	[ "$txt" = "$sys" ] && [ "$js" = "$sys" ] || bad="$bad $m: /sys/module $sys, text $txt, JSON $js;"
done
if [ -z "$bad" ]; then
	pass macsupport-report report-modules "loaded: ${in_order:-none}"
else
	fail macsupport-report report-modules "$bad"
fi

# The quirk states and reasons are those of mac_quirks's files
if [ -d "$QDIR" ]; then
	bad= n=0
	for f in "$QDIR"/*; do
		[ -f "$f" ] || continue
		q=${f##*/}
		line=$(head -n 1 "$f")
		state=${line%%:*}
		n=$((n + 1))
		grep -q -x -F -- "  $q: ${line%%; fix: *}" /tmp/report.txt ||
			bad="$bad $q: text lacks '$q: ${line%%; fix: *}';"
		case "$compact" in
		*"\"name\":\"$q\",\"state\":\"$state\","*) ;;
		*) bad="$bad $q: JSON state is not '$state';" ;;
		esac
	done
	listed=$(sed -n '/^Quirks (mac_quirks)$/,/^$/p' /tmp/report.txt | grep -c '^  [^ ].*: ')
	[ "$listed" = "$n" ] || bad="$bad the report lists $listed quirks, sysfs has $n;"
	if [ -z "$bad" ]; then
		pass macsupport-report report-quirks "$n quirks, as in $QDIR: $(for f in "$QDIR"/*; do
			[ -f "$f" ] && printf '%s=%s ' "${f##*/}" "$(head -n 1 "$f" | cut -d: -f1)"; done)"
	else
		fail macsupport-report report-quirks "$bad"
	fi
elif grep -q '"available": false' /tmp/report.json &&
     sed -n '/^Quirks (mac_quirks)$/{n;p;}' /tmp/report.txt | grep -q -E '^  (none: not an Apple machine|unknown: mac_quirks is (not loaded|loaded but does not show its quirks))'; then
	pass macsupport-report report-quirks "no $QDIR; the report says: $(sed -n '/^Quirks (mac_quirks)$/{n;p;}' /tmp/report.txt | sed 's/^ *//')"
else
	fail macsupport-report report-quirks "no $QDIR, but the report says: $(sed -n '/^Quirks (mac_quirks)$/,/^$/p' /tmp/report.txt | tr '\n' '|')"
fi

# The host validates the JSON against the schema.
json_check macsupport-report report-json /tmp/report.json

# --firmware on the guest's own tables (/sys/firmware/acpi/tables, as the
# report reads them on a Mac): every table is read, none refused, and the
# check agrees with the model table, or differs only in the kinds the
# profile's EXPECT_FW_DIFFERS names (gmux, thunderbolt, quirk), each for the
# reason EXPECT_FW_DIFFERS_WHY gives; an expectation that no longer differs
# fails too. Not real: the tables are OVMF's and QEMU's with the profile's
# stand-in SSDTs (names, methods and GPEs of the real ones; the host tier
# firmware-check runs the same check on the real dumps).
if macsupport-report --firmware > /tmp/report-fw.txt 2> /tmp/report-fw.err; then frc=0; else frc=$?; fi
macsupport-report --firmware --json > /tmp/report-fw.json 2>> /tmp/report-fw.err
fw_tables=$(sed -n 's/^  tables: *//p' /tmp/report-fw.txt)
fw_status=$(tr -d ' \n' < /tmp/report-fw.json | sed -n 's/.*"firmware":{"status":"\([a-z-]*\)".*/\1/p')
# the kinds of difference, from the lines "MODEL: KIND: ..."
fw_kinds=$(sed -n '/^  differs:/,/^$/p' /tmp/report-fw.txt | sed -n 's/^ *\(differs: *\)\{0,1\}[A-Za-z]*[0-9]*,[0-9]*: \([a-z]*\)[: ].*/\2/p' |
	sort -u | tr '\n' ' ')
fw_diffs=$(sed -n '/^  differs:/,/^$/p' /tmp/report-fw.txt | sed 's/^ *\(differs: *\)\{0,1\}//' | head -n 4 | tr '\n' ' ')
case "${EXPECT_APPLE:-0}/${EXPECT_MODEL_UNKNOWN:-0}" in
0/*|*/1) fw_want=unknown-model ;;
*) fw_want=${EXPECT_FW_DIFFERS:+differs}; fw_want=${fw_want:-agrees} ;;
esac
fw_bad=
[ "$frc" = "$rc" ] || fw_bad="exit $frc, the report's $rc;"
[ -s /tmp/report-fw.err ] && fw_bad="$fw_bad stderr '$(head -c 200 /tmp/report-fw.err | tr '\n' ' ')';"
grep -q '^Firmware (ACPI tables)' /tmp/report-fw.txt || fw_bad="$fw_bad no Firmware section;"
case "$fw_tables" in *", 0 refused") ;; *) fw_bad="$fw_bad tables '$fw_tables';" ;; esac
[ "$fw_status" = "$fw_want" ] || fw_bad="$fw_bad status '$fw_status', want '$fw_want';"
[ "$fw_status" != differs ] || [ -n "$fw_kinds" ] || fw_bad="$fw_bad differences of no known kind;"
for k in $fw_kinds; do
	case " ${EXPECT_FW_DIFFERS:-} " in
	*" $k "*) ;;
	*) fw_bad="$fw_bad a $k difference the profile does not expect;" ;;
	esac
done
[ "$fw_want" != differs ] || for k in $EXPECT_FW_DIFFERS; do
	case " $fw_kinds" in
	*" $k "*) ;;
	*) fw_bad="$fw_bad no $k difference, which the profile expects;" ;;
	esac
done
if [ -z "$fw_bad" ]; then
	pass macsupport-report report-firmware "$fw_status; tables: $fw_tables${fw_kinds:+; differs in ${fw_kinds% } (as expected: ${EXPECT_FW_DIFFERS_WHY:-?}): $fw_diffs}"
else
	fail macsupport-report report-firmware "$fw_bad differs: $fw_diffs"
fi
json_check macsupport-report report-firmware-json /tmp/report-fw.json

for m in $loaded_here; do
	rmmod "$m" 2> /dev/null
done
return 0
