# SPDX-License-Identifier: GPL-2.0
#
# A gmux that does not answer must not block system sleep, and the driver
# must recover once it answers again. Driven by the
# kernel's suspend test mode (pm_test=platform: every device callback, the
# noirq phases included), as 57-gmux-suspend.sh.
#
# 1. Stuck from the start: the suspend cycle must succeed (the driver logs
#    that it could not mask the interrupt and carries on) and .resume must
#    run (suspends = resumes). Before: "PM: failed to suspend: error -110".
# 2. The gmux hangs between suspend and resume ("stuck-after 2": the
#    backlight's and the driver's suspend writes land, the rest sticks): the
#    interrupt is masked (0) and the resume's unmask times out. Once the
#    gmux answers again the driver must unmask by itself (0xff) and put the
#    backlight level back. Before: INTERRUPT_ENABLE stayed 0.
# The classic gmux has no handshake, so it cannot be stuck.

gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
[ "$EXPECT_GMUX_KIND" = classic ] && skip_test apple_gmux_ng "the classic gmux has no handshake that could stick"
gmux_load
[ "$(gmux_state gpe)" -ge 0 ] 2>/dev/null || {
	fail apple_gmux_ng suspend-stuck-gmux "no GPE: nothing to mask"
	rmmod apple_gmux_ng
	exit 0
}
level=$(( $(cat "$BL/max_brightness") / 3 + 11 ))
echo "$level" > "$BL/brightness"
stat() { cat "/sys/power/suspend_stats/$1" 2>/dev/null || echo '?'; }
sleep_cycle()
{
	: > /tmp/err
	echo platform > /sys/power/pm_test
	if echo mem > /sys/power/state 2>/tmp/err || echo freeze > /sys/power/state 2>>/tmp/err; then
		rc=0
	else
		rc=1
	fi
	echo none > /sys/power/pm_test
}
echo 1 > /sys/module/suspend/parameters/pm_test_delay 2>/dev/null

# 1. Stuck before the suspend.
fails0=$(stat fail)
dmesg_mark stuck-suspend
gmux-simctl fault stuck > /dev/null
sleep_cycle
gmux-simctl fault none > /dev/null
s=$(gmux_state suspends)
r=$(gmux_state resumes)
fails=$(stat fail)
log=$(dmesg_since stuck-suspend | grep -E 'apple_gmux_ng|PM: ' | grep -iE 'mask|failed to suspend' |
	head -n 1 | sed 's/^\[[^]]*\] //' | cut -c 1-120)
if [ "$rc" = 0 ] && [ "$fails" = "$fails0" ] && [ "$s" = 1 ] && [ "$r" = 1 ]; then
	pass apple_gmux_ng suspend-stuck-gmux "sleep went on: suspends $s resumes $r; $log"
else
	fail apple_gmux_ng suspend-stuck-gmux "rc $rc ($(tr '\n' ' ' < /tmp/err)), suspend_stats fail $fails0 -> $fails, suspends $s resumes $r; $log"
fi
# The driver's own retry of the unmask must be done before the next step.
irq_back() { [ "$(gmux_state unmask_pending)" = 0 ] && [ "$(gmux-simctl get int_enable)" = 255 ]; }
if t=$(wait_until 10 irq_back); then
	pass apple_gmux_ng suspend-stuck-gmux-irq-on "INTERRUPT_ENABLE 0xff, nothing pending ${t} s after the gmux answered"
else
	fail apple_gmux_ng suspend-stuck-gmux-irq-on "INTERRUPT_ENABLE $(gmux-simctl get int_enable), unmask_pending '$(gmux_state unmask_pending)' $t s after the gmux answered"
fi

# 2. Hangs between suspend and resume.
s0=$(gmux_state suspends)
r0=$(gmux_state resumes)
dmesg_mark stuck-resume
gmux-simctl stuck-after 2 > /dev/null
sleep_cycle
en_stuck=$(gmux-simctl get int_enable)
stuck=$(gmux-simctl get fault)
gmux-simctl fault none > /dev/null
if [ "$rc" != 0 ] || [ "$stuck" != stuck ] || [ "$en_stuck" != 0 ]; then
	fail apple_gmux_ng resume-stuck-recovers "premise: cycle rc $rc, gmux $stuck, INTERRUPT_ENABLE $en_stuck after resume (want 0, masked by the suspend)"
elif t=$(wait_until 10 sh -c '[ "$(gmux-simctl get int_enable)" = 255 ]') &&
     wait_until 5 sh -c "[ \"\$(gmux-simctl get brightness)\" = $level ]" > /dev/null; then
	pass apple_gmux_ng resume-stuck-recovers "INTERRUPT_ENABLE 0 while stuck -> 0xff and level $level back ${t} s after the gmux answered; $(dmesg_since stuck-resume | grep -o 'the gmux answers again.*' | head -n 1 | cut -c 1-80)"
else
	fail apple_gmux_ng resume-stuck-recovers "INTERRUPT_ENABLE $(gmux-simctl get int_enable), level $(gmux-simctl get brightness) (want $level) $t s after the gmux answered"
fi
if [ "$(gmux_state suspends)" = $((s0 + 1)) ] && [ "$(gmux_state resumes)" = $((r0 + 1)) ]; then
	pass apple_gmux_ng resume-stuck-counted "suspends $((s0 + 1)) resumes $((r0 + 1))"
else
	fail apple_gmux_ng resume-stuck-counted "suspends $(gmux_state suspends) resumes $(gmux_state resumes), want $((s0 + 1))"
fi

# And an ordinary cycle afterwards still masks and restores.
gmux-simctl reset-stats > /dev/null
sleep_cycle
if [ "$rc" = 0 ] && [ "$(gmux-simctl get int_enable)" = 255 ] &&
   [ "$(gmux-simctl get reg_writes)" -ge 2 ] && [ "$(gmux-simctl get brightness)" = "$level" ]; then
	pass apple_gmux_ng suspend-after-stuck "interrupts masked and restored, level $level kept"
else
	fail apple_gmux_ng suspend-after-stuck "rc $rc, enable $(gmux-simctl get int_enable), writes $(gmux-simctl get reg_writes), level $(gmux-simctl get brightness)"
fi
rmmod apple_gmux_ng
