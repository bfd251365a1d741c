# SPDX-License-Identifier: GPL-2.0
#
# System sleep: the driver masks the gmux interrupt on suspend and restores
# it, and the backlight level, on resume. Driven by the kernel's own
# suspend test mode, since a TCG guest has nothing to wake it:
# pm_test=platform runs every device callback, the late and noirq phases
# and the platform's (ACPI _PTS/_WAK) included, and stops just before the
# platform would sleep (pm_test=devices would skip the noirq phases).

gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
gmux_load
max=$(cat "$BL/max_brightness")
level=$((max / 3 + 5))
echo "$level" > "$BL/brightness"
echo 1 > /sys/module/suspend/parameters/pm_test_delay 2>/dev/null
echo platform > /sys/power/pm_test
gmux-simctl reset-stats > /dev/null
if echo mem > /sys/power/state 2>/tmp/err || echo freeze > /sys/power/state 2>>/tmp/err; then
	echo none > /sys/power/pm_test
	s=$(gmux_state suspends)
	r=$(gmux_state resumes)
	en=$(gmux-simctl get int_enable)
	sim=$(gmux-simctl get brightness)
	if [ "$s" = 1 ] && [ "$r" = 1 ] && [ "$en" = 255 ] && [ "$sim" = "$level" ] &&
	   [ "$(gmux-simctl get reg_writes)" -ge 2 ]; then
		pass apple_gmux_ng suspend-resume "interrupts masked and restored, level $level kept"
	else
		fail apple_gmux_ng suspend-resume "suspends $s resumes $r enable $en level $sim (want $level)"
	fi
else
	echo none > /sys/power/pm_test
	fail apple_gmux_ng suspend-resume "suspend test failed: $(cat /tmp/err)"
fi
rmmod apple_gmux_ng
