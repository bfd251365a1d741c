# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_TB_NHI,TEST_TB_OSI append acpi_osi=!Darwin
#
# Booted with acpi_osi=!Darwin (a common workaround that turns off Apple's
# Darwin paths in the AML), _OSI("Darwin") answers false, and on every real
# Mac in the reference XRPE and TRPE then do nothing (If (OSDW ())). A
# power-down would be a lie: tb_macpm still lists the controller but keeps
# it on, says why in stay_on_reason, and never calls the power method.
# Emulated: the profile's SSDT leaves the OSDW () guard out of XRPE, so a
# module that called XRPE(0) anyway is seen (ZCOF, ZPWR) rather than hidden.

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
of=$(tb_fw 1 ZCOF)
case "$reason" in
*'_OSI("Darwin") answers false'*)
	if [ "$(tb_attr 1 power_state)" = on ] && [ "$of" = 0 ] && [ "$(tb_fw 1 ZPWR)" = 1 ]; then
		pass tb_macpm no-darwin-stays-on "listed, on, power method never called (ZCOF $of): '$reason'"
	else
		fail tb_macpm no-darwin-stays-on "reason said, but $(tb_state 1)"
	fi ;;
*)
	fail tb_macpm no-darwin-stays-on "$(tb_state 1); $(dmesg_since tb-osi | grep tb_macpm | tail -2 | tr '\n' ' ')" ;;
esac
rmmod tb_macpm
check tb_macpm no-darwin-unload [ "$(tb_fw 1 ZPWR)" = 1 ]
