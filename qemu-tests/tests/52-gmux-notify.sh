# SPDX-License-Identifier: GPL-2.0
#
# The gmux interrupt path: the simulated gmux raises a status bit, the
# profile's own GPE method (\_GPE._L16, or _L15 on T2) is evaluated by a
# test-only helper, as the GPE would be, and does Notify(gmux, 0x80). The
# driver's notify handler must read the status, clear it by writing it
# back, unmask again, and on T2 call GMSP(0).
# Real: the ACPI methods, ACPICA's notify dispatch, the driver's handler.
# Carried: register access over the simulator window. Not emulated: the
# GPE itself firing (software cannot set GPE status bits in QEMU).

gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
modprobe macsupport_test_acpi
gmux_load
gpe=$(printf '%02X' "$EXPECT_GMUX_GPE")
eval_acpi() { echo "$1" > /sys/kernel/debug/macsupport_test_acpi/eval; cat /sys/kernel/debug/macsupport_test_acpi/eval; }

if [ "$EXPECT_GMUX_KIND" = t2 ]; then
	gmsp_before=$(eval_acpi "${EXPECT_GMUX_PATH}.ZMSC")
fi
gmux-simctl raise 0x04 > /dev/null
st_before=$(gmux-simctl get int_status)
res=$(eval_acpi "\\_GPE._L$gpe")
n=0
while [ "$(gmux_state notifications)" = 0 ] && [ $n -lt 50 ]; do
	sleep 0.1
	n=$((n + 1))
done
st_after=$(gmux-simctl get int_status)
en_after=$(gmux-simctl get int_enable)
seen=$(gmux_state status_seen)
if [ "$st_before" = 4 ] && [ "$(gmux_state notifications)" = 1 ] && [ "$seen" = 0x04 ] &&
   [ "$st_after" = 0 ] && [ "$en_after" = 255 ]; then
	pass apple_gmux_ng notify-clears-status "_L$gpe: $res; status 0x04 -> 0, interrupts unmasked"
else
	fail apple_gmux_ng notify-clears-status "_L$gpe: $res; status $st_before -> $st_after, enable $en_after, notifications $(gmux_state notifications), seen $seen"
fi

if [ "$EXPECT_GMUX_KIND" = t2 ]; then
	gmsp_after=$(eval_acpi "${EXPECT_GMUX_PATH}.ZMSC")
	if [ "${gmsp_after#ok }" = $((${gmsp_before#ok } + 1)) ]; then
		pass apple_gmux_ng notify-t2-calls-gmsp "GMSP calls ${gmsp_before#ok } -> ${gmsp_after#ok }"
	else
		fail apple_gmux_ng notify-t2-calls-gmsp "GMSP calls $gmsp_before -> $gmsp_after"
	fi
fi
rmmod apple_gmux_ng
rmmod macsupport_test_acpi
