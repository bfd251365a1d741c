# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_TB_NHI,TEST_TB_OSI append acpi_osi=!Darwin
#
# Booted with acpi_osi=!Darwin (a common workaround that turns off Apple's
# Darwin paths in the AML), _OSI("Darwin") answers false, and on every real
# Mac in the reference XRPE and TRPE then do nothing (If (OSDW ())). A
# power-down would be a lie: tb_macpm still lists the controller but keeps
# it on, says why in stay_on_reason, and never calls the power method.
# Emulated: the profile's XRPE is the real one, OSDW () guard included, so
# a call would change nothing: the firmware-call trace (its \ZTRC, TEST
# ONLY) shows whether the module made one at all (without a trace, ZCOF,
# the firmware's cuts, which the guard hides).

[ "${EXPECT_APPLE:-0}" = 1 ] || skip_test tb_macpm "$PROFILE is not an Apple machine"
nhi=$(tb_nth "$EXPECT_TB_NHI" 1)
grep -qw 'acpi_osi=!Darwin' /proc/cmdline ||
	{ fail tb_macpm no-darwin-stays-on "booted without acpi_osi=!Darwin: $(cat /proc/cmdline)"; return 0; }
dmesg_mark tb-osi
tb_load
tb_fast "$nhi"
# past the autosuspend delays (200 ms each) that would end in a power-down
sleep 3
reason=$(tb_attr 1 stay_on_reason)
trace=$(fw_trace_peek)
if [ "${trace#error}" = "$trace" ]; then
	of=$(printf '%s\n' "$trace" | grep -c '^call .*\.[XT]RPE 0$')
	how="XRPE/TRPE(0) calls in the firmware-call trace"
else
	of=$(tb_fw 1 ZCOF)
	how="ZCOF"
fi
case "$reason" in
*'_OSI("Darwin") answers false'*)
	if [ "$(tb_attr 1 power_state)" = on ] && [ "$of" = 0 ] && [ "$(tb_fw 1 ZPWR)" = 1 ]; then
		pass tb_macpm no-darwin-stays-on "listed, on, power method never called ($how: $of): '$reason'"
	else
		fail tb_macpm no-darwin-stays-on "reason said, but $how $of, $(tb_state 1)"
	fi ;;
*)
	fail tb_macpm no-darwin-stays-on "$(tb_state 1); $(dmesg_since tb-osi | grep tb_macpm | tail -2 | tr '\n' ' ')" ;;
esac
rmmod tb_macpm
check tb_macpm no-darwin-unload [ "$(tb_fw 1 ZPWR)" = 1 ]
