# SPDX-License-Identifier: GPL-2.0
#
# System sleep with the profile's first Thunderbolt controller powered off:
# nothing powers it up before sleep (its devices are D3cold and the PCI
# core leaves them suspended); on resume 6.1's PCI core resumes every PCIe
# port, so tb_macpm powers the controller in its resume_noirq, before the
# upstream port's, after resetting the power switch (XRPE(0) then XRPE(1):
# firmware may have changed it); idle again, it goes off, and the plug GPE
# works again. Driven by the kernel's suspend test mode (pm_test=devices:
# devices are suspended and resumed, the platform does not sleep), since a
# TCG guest has nothing to wake it.

[ "${EXPECT_APPLE:-0}" = 1 ] && [ -n "${EXPECT_TB_NHI:-}" ] || return 0
[ "$(tb_nth "$EXPECT_TB_GPE_SOURCE" 1)" != none ] || return 0

nhi=$(tb_nth "$EXPECT_TB_NHI" 1)
tb_load
tb_fast "$nhi"
if ! wait_until 20 tb_is 1 off > /dev/null; then
	fail tb_macpm sleep-off "not off before the test: $(tb_state 1)"
	return 0
fi
on0=$(tb_fw 1 TCON)
of0=$(tb_fw 1 TCOF)
cy0=$(tb_attr 1 power_cycles)
echo 1 > /sys/module/suspend/parameters/pm_test_delay 2>/dev/null
echo devices > /sys/power/pm_test
dmesg_mark tb-sleep
if echo mem > /sys/power/state 2>/tmp/err || echo freeze > /sys/power/state 2>>/tmp/err; then
	echo none > /sys/power/pm_test
	on1=$(tb_fw 1 TCON)
	of1=$(tb_fw 1 TCOF)
	errs=$(dmesg_since tb-sleep | grep -ci -e inaccessible -e 'tb_macpm.*fail')
	if [ "$on1" = $((on0 + 1)) ] && [ "$of1" -le $((of0 + 2)) ] && [ "$errs" = 0 ]; then
		pass tb_macpm sleep-no-needless-power-up "across sleep: 1 power-up (in resume_noirq, before the ports' resume), power-downs $of0 -> $of1 (switch reset + back off when idle)"
	else
		fail tb_macpm sleep-no-needless-power-up "power-ups $on0 -> $on1, power-downs $of0 -> $of1, errors $errs: $(dmesg_since tb-sleep | grep -i -e tb_macpm -e inaccessible | tail -3 | tr '\n' ' ')"
	fi
else
	echo none > /sys/power/pm_test
	fail tb_macpm sleep-no-needless-power-up "suspend test failed: $(cat /tmp/err)"
fi
if t=$(wait_until 20 tb_is 1 off); then
	pass tb_macpm sleep-off-again "off $t s after resume, power cycles $cy0 -> $(tb_attr 1 power_cycles)"
else
	fail tb_macpm sleep-off-again "$(tb_state 1)"
fi
# the switch is re-armed: a plug wakes it
tb_fw_set 1 TPLG 1
tb_raise 1
if t=$(wait_until 15 tb_is 1 on); then
	pass tb_macpm sleep-rearmed "plug GPE after sleep: on in $t s"
else
	fail tb_macpm sleep-rearmed "$(tb_state 1)"
fi
tb_fw_set 1 TPLG 0
wait_until 20 tb_is 1 off > /dev/null
check tb_macpm sleep-no-unpowered-access [ "$(tb_unpowered "$nhi")" = 0 ]
