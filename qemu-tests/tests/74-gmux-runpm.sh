# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_DGPU_DEV,SIMULATOR,TEST_RUNPM
# harness: replay
#
# Automatic power-off of the dGPU: when the dGPU's driver
# runtime-suspends it (and its audio function is suspended), apple_gmux_ng
# cuts its power through the gmux; a runtime resume powers it first.
# The test-only fake GPU driver, loaded with runpm=1, uses runtime PM on the
# dGPU as nouveau.runpm=1 does and binds the dGPU's audio function with
# runtime PM as snd_hda_intel does; in every runtime-PM callback it checks
# the simulated gmux's dGPU power (GMUX_SIM_ST_DGPU_ON): "unpowered" counts
# a driver that ran on an unpowered dGPU and must stay 0.
# Real: runtime PM, device links, vga_switcheroo, the driver's power switch
# device, the gmux protocol over the simulator window. Emulated: the GPUs
# (QEMU's secondary-vga and intel-hda; the fake driver's cold device makes
# their config space read all-ones while the simulated gmux has them
# unpowered, but their MMIO and state stay: a dGPU that does not come back,
# or loses its state, cannot be shown here) and the gmux's GPE
# (macsupport_test_gpe_wire). Own boot: it drives vga_switcheroo and
# system sleep. The simulator counts every cut of the modelled dGPU's power
# (gmux-simctl get dgpu_offs), so a cut that something undoes at once is
# seen too. TEST ONLY: apple_gmux_ng's test_unlink_delay_ms widens the
# window between the start of its removal and the unlinking, so that a
# device removal can be placed in it. The firmware calls (the profile's
# dgpu.asl: PWRD) are replayed on the Mac's own tables at the checkpoints
# (fw_trace_take): the dGPU off, on again, off again.

[ -n "${EXPECT_DGPU_DEV:-}" ] || skip_test apple_gmux_ng "no dGPU on $PROFILE"
gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
D=$EXPECT_DGPU_DEV
A=${EXPECT_DGPU_AUDIO_DEV:-}
DELAY_MS=500
PARAM=/sys/module/apple_gmux_ng/parameters/dgpu_runtime_off

power_dev() { echo "$(gmux_pnp)/dgpu_power"; }
rp() { sed -n "s/^$1: //p" "$(gmux_debugfs)/dgpu_power" 2>/dev/null; }
runpm_of() { sed -n "s/^$2: //p" "$TEST_GPU/$1/runpm" 2>/dev/null; }
# config accesses to the unpowered dGPU made on purpose (gpu_cold_check)
COLD_EXPECTED=0
dgpu_is() { [ "$(gmux-simctl get dgpu_on)" = "$1" ]; }
unpowered()
{
	_a=0
	[ -n "$A" ] && _a=$(runpm_of "$A" unpowered)
	echo $(( $(runpm_of "$D" unpowered) + ${_a:-0} ))
}
state() {
	echo "sim dgpu_on $(gmux-simctl get dgpu_on), switch $(cat "$(power_dev)/power/runtime_status" 2>/dev/null), dGPU $(runpm_of "$D" status), audio $(runpm_of "$A" status), offs $(rp power_offs) ons $(rp power_ons) blocker '$(rp last_blocker)'"
}

# use_dgpu: the dGPU's driver takes the dGPU and lets it go again
use_dgpu()
{
	echo 1 > "$TEST_GPU/$D/hold"
	echo 0 > "$TEST_GPU/$D/hold"
}

# off_within S: the dGPU loses power within S seconds; prints the time
off_within()
{
	wait_until "$1" dgpu_is 0
}

modprobe macsupport_test_gpe_wire gpe="$EXPECT_GMUX_GPE"
modprobe macsupport_test_acpi
dmesg_mark runpm-load
gmux_load
modprobe macsupport_test_gpu runpm=1 autosuspend_ms=$DELAY_MS
if ! wait_until 10 sh -c "[ -e '$TEST_GPU/$D/runpm' ]" > /dev/null; then
	fail apple_gmux_ng runpm-setup "the fake GPU driver did not bind $D with runtime PM: $(dmesg_since runpm-load | grep -E 'gmux|test_gpu' | tail -n 3 | tr '\n' ' ')"
	gpu_modules_out
	exit 0
fi

# Idle: off by itself, the audio function suspended first (the dGPU's
# driver, then the switch, suspend only after it).
if t=$(off_within 10); then
	if [ "$(rp power)" = off ] && [ "$(cat "$(power_dev)/power/runtime_status")" = suspended ] &&
	   [ "$(cat "$(power_dev)/stay_on_reason")" = none ] &&
	   [ "$(unpowered)" = 0 ] && { [ -z "$A" ] || [ "$(runpm_of "$A" suspends)" -ge 1 ]; }; then
		pass apple_gmux_ng runpm-idle-off "dGPU powered off ${t} s after its driver bound (autosuspend ${DELAY_MS} ms); $(state)"
	else
		fail apple_gmux_ng runpm-idle-off "off, but: $(state), unpowered $(unpowered)"
	fi
else
	fail apple_gmux_ng runpm-idle-off "still powered 10 s after binding: $(state)"
fi
fw_trace_take runpm-idle-off apple_gmux_ng

# The cut dGPU and its audio function are D3cold to the PCI core (as
# tb_macpm marks its devices), so a config read (lspci, sysfs) resumes them
# instead of reading all-ones: the cold device (the stand-ins' config reads
# all-ones while unpowered) shows the read got the real vendor ID.
ps_d=$(cat "/sys/bus/pci/devices/$D/power_state" 2>/dev/null)
ps_a=
[ -n "$A" ] && ps_a=$(cat "/sys/bus/pci/devices/$A/power_state" 2>/dev/null)
r0=$(runpm_of "$D" resumes)
c0=$(cold_accesses)
vid=$(od -An -tx2 -N2 "/sys/bus/pci/devices/$D/config" 2>/dev/null | tr -d ' ')
r1=$(runpm_of "$D" resumes)
c1=$(cold_accesses)
if [ "$ps_d" = D3cold ] && { [ -z "$A" ] || [ "$ps_a" = D3cold ]; } && [ "$r1" -gt "$r0" ] &&
   [ "$vid" = 1234 ] && [ "$c1" = "$c0" ] && [ "$(cold_of enabled)" = 1 ] &&
   [ "$(unpowered)" = 0 ] && off_within 10 > /dev/null; then
	pass apple_gmux_ng runpm-cut-is-d3cold "power_state $ps_d${A:+, audio $ps_a}; a config read resumed the dGPU (resumes $r0 -> $r1) and read vendor $vid, not all-ones; off again"
else
	fail apple_gmux_ng runpm-cut-is-d3cold "power_state '$ps_d'${A:+, audio '$ps_a'}, config read: vendor '$vid', resumes $r0 -> $r1, cold accesses $c0 -> $c1 (cold device: $(cold_of enabled)); $(state)"
fi

# A runtime resume of the dGPU powers it before its driver runs.
r0=$(runpm_of "$D" resumes)
echo 1 > "$TEST_GPU/$D/hold"
if dgpu_is 1 && [ "$(runpm_of "$D" resumes)" -gt "$r0" ] && [ "$(unpowered)" = 0 ] &&
   [ "$(runpm_of "$D" status)" = active ]; then
	pass apple_gmux_ng runpm-resume-powers-first "the dGPU's driver resumed on a powered dGPU; $(state)"
else
	fail apple_gmux_ng runpm-resume-powers-first "resumes $r0 -> $(runpm_of "$D" resumes), unpowered $(unpowered); $(state)"
fi
fw_trace_take runpm-resume-powers-first apple_gmux_ng
sleep 1
if dgpu_is 1; then
	pass apple_gmux_ng runpm-held-stays-on "in use for 1 s (2 autosuspend delays): powered"
else
	fail apple_gmux_ng runpm-held-stays-on "power cut while the dGPU's driver holds it: $(state)"
fi
echo 0 > "$TEST_GPU/$D/hold"
if t=$(off_within 10); then
	pass apple_gmux_ng runpm-off-again "off ${t} s after its driver let go"
else
	fail apple_gmux_ng runpm-off-again "$(state)"
fi
fw_trace_take runpm-off-again apple_gmux_ng

# An external display plugged (the gmux's HOTPLUG interrupt): on these
# Thunderbolt Macs the port is wired to the dGPU, which is resumed, so that
# its driver looks at the port, and suspends again by itself.
h0=$(rp hotplug_wakes)
gmux-simctl raise 0x08 > /dev/null
if t=$(wait_until 5 dgpu_is 1) && [ "$(rp hotplug_wakes)" -gt "$h0" ] && [ "$(unpowered)" = 0 ]; then
	if t2=$(off_within 10); then
		pass apple_gmux_ng runpm-hotplug-powers-up "HOTPLUG: dGPU powered ${t} s later, off again ${t2} s after; hotplug_wakes $h0 -> $(rp hotplug_wakes)"
	else
		fail apple_gmux_ng runpm-hotplug-powers-up "powered on hotplug but not off again: $(state)"
	fi
else
	fail apple_gmux_ng runpm-hotplug-powers-up "hotplug_wakes $h0 -> $(rp hotplug_wakes), unpowered $(unpowered); $(state)"
fi

# The audio function keeps the dGPU (device link, DL_FLAG_PM_RUNTIME).
if [ -n "$A" ]; then
	echo 1 > "$TEST_GPU/$A/hold"
	sleep 1
	if dgpu_is 1 && [ "$(runpm_of "$D" status)" = active ] && [ "$(unpowered)" = 0 ]; then
		pass apple_gmux_ng runpm-audio-keeps-power "audio in use: dGPU resumed and powered; $(state)"
	else
		fail apple_gmux_ng runpm-audio-keeps-power "$(state), unpowered $(unpowered)"
	fi
	echo 0 > "$TEST_GPU/$A/hold"
	if t=$(off_within 10) && [ "$(unpowered)" = 0 ]; then
		pass apple_gmux_ng runpm-audio-suspends-first "audio released: off ${t} s later, the audio's driver never ran unpowered"
	else
		fail apple_gmux_ng runpm-audio-suspends-first "$(state), unpowered $(unpowered)"
	fi
fi

# The panel on the dGPU (mux only): its power stays on, and says why.
echo 1 > "$TEST_GPU/$D/hold"
echo MDIS > "$VGASR"
echo 0 > "$TEST_GPU/$D/hold"
sleep 2
if dgpu_is 1 && [ "$(runpm_of "$D" status)" = suspended ] &&
   [ "$(rp last_blocker)" = "the panel is on the discrete GPU" ]; then
	pass apple_gmux_ng runpm-panel-on-dgpu-keeps-power "driver suspended, power kept: $(rp last_blocker)"
else
	fail apple_gmux_ng runpm-panel-on-dgpu-keeps-power "$(state)"
fi
# Back to the iGPU: the refused cut is tried again, without the dGPU's
# driver doing anything.
echo MIGD > "$VGASR"
if t=$(off_within 10); then
	pass apple_gmux_ng runpm-off-after-switch-to-igd "panel to the iGPU: off ${t} s later, nothing else touched the dGPU"
else
	fail apple_gmux_ng runpm-off-after-switch-to-igd "still powered 10 s after the panel went to the iGPU: $(state)"
	use_dgpu
	off_within 10 > /dev/null
fi

# Turned off by the module parameter: the dGPU stays powered.
echo 0 > "$PARAM"
use_dgpu
sleep 2
if dgpu_is 1 && [ "$(rp last_blocker)" = "dgpu_runtime_off=0" ] &&
   [ "$(cat "$(power_dev)/stay_on_reason")" = "dgpu_runtime_off=0" ]; then
	pass apple_gmux_ng runpm-param-off "dgpu_runtime_off=0: driver suspended ($(runpm_of "$D" status)), power kept; sysfs stay_on_reason says so"
else
	fail apple_gmux_ng runpm-param-off "$(state)"
fi
echo 1 > "$PARAM"
if t=$(off_within 10); then
	pass apple_gmux_ng runpm-param-on-cuts "dgpu_runtime_off=1: off ${t} s later, nothing else touched the dGPU"
else
	fail apple_gmux_ng runpm-param-on-cuts "still powered 10 s after dgpu_runtime_off=1: $(state)"
	use_dgpu
	off_within 10 > /dev/null
fi

# System sleep (pm_test=platform, the noirq phases included, as
# 57-gmux-suspend.sh): off before, off after, and the driver never ran
# unpowered. Whether the dGPU is powered up for the sleep is the PM core's
# choice (a runtime-suspended device that cannot take the direct-complete
# path, and whose driver lacks DPM_FLAG_SMART_SUSPEND, is resumed for its
# suspend callback): counted, not judged.
# On resume the driver cuts the power again; whether the dGPU answers its
# vendor ID first says whether the firmware powered it, and so whether its
# link is there to take down (PWRD(1)): one config read of the cut dGPU,
# made on purpose.
if dgpu_is 0; then
	ons0=$(rp power_ons)
	c0=$(cold_accesses)
	echo 1 > /sys/module/suspend/parameters/pm_test_delay 2>/dev/null
	echo platform > /sys/power/pm_test
	if echo mem > /sys/power/state 2>/tmp/err || echo freeze > /sys/power/state 2>>/tmp/err; then
		echo none > /sys/power/pm_test
		c1=$(cold_accesses)
		[ $((c1 - c0)) -le 1 ] && COLD_EXPECTED=$((COLD_EXPECTED + c1 - c0))
		if t=$(off_within 10) && [ "$(unpowered)" = 0 ]; then
			pass apple_gmux_ng runpm-kept-across-sleep "pm_test=platform $(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/power/mem_sleep): powered up $(( $(rp power_ons) - ons0 )) time(s) across it, off ${t} s after resume; $(state)"
		else
			fail apple_gmux_ng runpm-kept-across-sleep "$(state), unpowered $(unpowered)"
		fi
	else
		echo none > /sys/power/pm_test
		fail apple_gmux_ng runpm-kept-across-sleep "suspend test failed: $(cat /tmp/err)"
	fi
else
	fail apple_gmux_ng runpm-kept-across-sleep "premise: dGPU not off before sleep: $(state)"
fi

# The GPU driver already bound when apple_gmux_ng loads: unloading powers
# the dGPU and unlinks it; the reload links the bound dGPU and cuts again.
rmmod apple_gmux_ng
if dgpu_is 1 && [ ! -e "$(power_dev)" ]; then
	pass apple_gmux_ng runpm-unload-powers "unloaded: dGPU powered, switch gone"
else
	fail apple_gmux_ng runpm-unload-powers "sim dgpu_on $(gmux-simctl get dgpu_on), $(ls -d "$(power_dev)" 2>&1)"
fi
# The dGPU runtime-suspended (powered: unlinked) before the reload, as it
# is after its autosuspend delay: vga_switcheroo then calls it OFF (its
# driver has power control), which must not be taken for a manual OFF.
wait_until 10 sh -c "[ \"\$(sed -n 's/^status: //p' '$TEST_GPU/$D/runpm')\" = suspended ]" > /dev/null
dmesg_mark runpm-reload
gmux_load
use_dgpu
if t=$(off_within 10) && dmesg_since runpm-reload | grep -q "dGPU $D bound to macsupport_test_gpu: power cut"; then
	pass apple_gmux_ng runpm-bound-before-load "dGPU bound before apple_gmux_ng: linked at probe, off ${t} s after release"
else
	fail apple_gmux_ng runpm-bound-before-load "$(state); $(dmesg_since runpm-reload | grep dgpu_power | tail -n 2 | tr '\n' ' ')"
fi

# force_igd=1: the panel goes to the iGPU when the gmux is probed, before
# the iGPU's driver binds (bound first: 76-gmux-igd-panel.sh).
I=${EXPECT_IGPU_DEV:-}
echo 1 > "$TEST_GPU/$D/hold"
echo MDIS > "$VGASR"
echo 0 > "$TEST_GPU/$D/hold"
[ -n "$I" ] && echo "$I" > /sys/bus/pci/drivers/macsupport_test_gpu/unbind
rmmod apple_gmux_ng
before=$(gmux-simctl get switch_display)
dmesg_mark runpm-force-igd
gmux_load force_igd=1
if [ "$before" = 3 ] && sim_is switch_display 2 &&
   dmesg_since runpm-force-igd | grep -q 'force_igd: panel switched to the integrated GPU'; then
	pass apple_gmux_ng force-igd "panel on the dGPU before the load, on the iGPU after force_igd=1"
else
	fail apple_gmux_ng force-igd "SWITCH_DISPLAY $before -> $(gmux-simctl get switch_display); $(dmesg_since runpm-force-igd | grep force_igd)"
fi
[ -n "$I" ] && echo "$I" > /sys/bus/pci/drivers/macsupport_test_gpu/bind
use_dgpu
off_within 10 > /dev/null

# Unloading while the dGPU's driver holds it: the power is never cut, not
# even for a moment (deleting the dGPU's link lets the switch idle while the
# link's removal sleeps in sysfs; the simulator counts every cut).
# The same unloads: the switch device is released (its release callback is
# module code) by rmmod itself, not later from the device links' workqueue,
# when the module may be gone: the kernel's kobject_cleanup debug line for
# it carries rmmod's pid (dynamic debug's thread id).
N=20
echo 1 > "$TEST_GPU/$D/hold"
echo 'func kobject_cleanup +pt' > /sys/kernel/debug/dynamic_debug/control
o0=$(gmux-simctl get dgpu_offs)
late=0
late_line=
i=0
while [ $i -lt $N ]; do
	dmesg_mark "runpm-unload-$i"
	# the rmmod binary itself (the guest's rmmod function forks it)
	command rmmod apple_gmux_ng &
	pid=$!
	wait $pid
	l=$(dmesg_since "runpm-unload-$i" | grep "kobject: 'dgpu_power'.*kobject_cleanup")
	# its driver directory may outlive it on a debug kernel (see init)
	wait_until 5 sh -c '! [ -e /sys/bus/pnp/drivers/apple_gmux_ng ]' > /dev/null
	if debug_kernel; then
		# CONFIG_DEBUG_KOBJECT_RELEASE defers every release 1 to 4 s to
		# a workqueue on purpose: module exit must have waited for it
		if [ -z "$l" ]; then
			late=$((late + 1))
			late_line="rmmod pid $pid returned before the switch's kobject_cleanup"
		fi
	elif [ -z "$l" ] || [ -n "$(echo "$l" | grep -v "\\[$pid\\] ")" ]; then
		late=$((late + 1))
		late_line="rmmod pid $pid: '$(echo "$l" | head -n 1)'"
	fi
	gmux_load
	i=$((i + 1))
done
echo 'func kobject_cleanup -pt' > /sys/kernel/debug/dynamic_debug/control
o1=$(gmux-simctl get dgpu_offs)
if [ "$late" = 0 ]; then
	pass apple_gmux_ng runpm-switch-released-in-remove "$N unloads: the switch device was freed by rmmod every time (a race: this guest's timing never lost it without the wait either)"
else
	fail apple_gmux_ng runpm-switch-released-in-remove "$N unloads: $late freed it outside rmmod, e.g. $late_line"
fi
if [ "$o1" = "$o0" ] && dgpu_is 1 && [ "$(unpowered)" = 0 ]; then
	pass apple_gmux_ng runpm-unload-never-cuts-active "$N unloads and reloads with the dGPU in use: no power cut (dgpu_offs $o0 -> $o1)"
else
	fail apple_gmux_ng runpm-unload-never-cuts-active "$N unloads and reloads with the dGPU in use: dgpu_offs $o0 -> $o1; $(state)"
fi
echo 0 > "$TEST_GPU/$D/hold"
off_within 10 > /dev/null

# The audio function removed (a common nouveau workaround): the dGPU stays
# linked and is cut when idle; rescanned, the audio is linked again.
if [ -n "$A" ]; then
	echo 1 > "/sys/bus/pci/devices/$A/remove"
	use_dgpu
	if [ "$(rp dgpu)" = "$D" ] && t=$(off_within 10); then
		pass apple_gmux_ng runpm-audio-removed-keeps-dgpu "audio removed: the dGPU still linked, off ${t} s after use"
	else
		fail apple_gmux_ng runpm-audio-removed-keeps-dgpu "audio removed: dgpu '$(rp dgpu)'; $(state)"
	fi
	# A rescan while the dGPU is cut finds nothing behind it: the
	# unpowered audio function reads all-ones, as on a real Mac (the cold
	# device). The reads are made on purpose here: not counted below.
	c0=$(cold_accesses)
	echo 1 > /sys/bus/pci/rescan
	c1=$(cold_accesses)
	COLD_EXPECTED=$((COLD_EXPECTED + c1 - c0))
	if [ "$(cold_of enabled)" != 1 ]; then
		fail apple_gmux_ng runpm-rescan-while-cut "the cold device is off: $(cat "$TEST_GPU/cold" | tr '\n' ' ')"
	elif [ ! -e "/sys/bus/pci/devices/$A" ] && dgpu_is 0 && [ "$c1" -gt "$c0" ]; then
		pass apple_gmux_ng runpm-rescan-while-cut "audio not found (its config read all-ones $((c1 - c0)) times), the dGPU still off: wake the dGPU before a rescan"
	else
		fail apple_gmux_ng runpm-rescan-while-cut "audio present: $([ -e "/sys/bus/pci/devices/$A" ] && echo yes || echo no), cold accesses $c0 -> $c1; $(state)"
	fi
	# Woken (its driver holds it), a rescan finds the audio again.
	echo 1 > "$TEST_GPU/$D/hold"
	echo 1 > /sys/bus/pci/rescan
	wait_until 10 sh -c "[ -e '$TEST_GPU/$A/runpm' ]" > /dev/null
	echo 0 > "$TEST_GPU/$D/hold"
	if ls -d "/sys/bus/pci/devices/$A/supplier:"*dgpu_power > /dev/null 2>&1 &&
	   t=$(off_within 10) && [ "$(unpowered)" = 0 ]; then
		pass apple_gmux_ng runpm-audio-relinked "rescanned with the dGPU awake: audio bound and linked to the switch again, off ${t} s after release"
	else
		fail apple_gmux_ng runpm-audio-relinked "rescanned: suppliers of $A: $(ls -d "/sys/bus/pci/devices/$A/supplier:"* 2>&1 | tr '\n' ' '); $(state)"
	fi
fi

# A HOTPLUG that comes while a power change holds the driver's lock (here a
# power-on the gmux does not complete, 500 ms) is not lost: the dGPU is
# asked to resume once the lock is free. (The review's case, a HOTPLUG
# during system resume, cannot be placed: user space is frozen then.)
h0=$(rp hotplug_wakes)
gmux-simctl fault power-stuck > /dev/null
(echo 1 > "$TEST_GPU/$D/hold") 2> /dev/null &
bg=$!
sleep 0.2
gmux-simctl raise 0x08 > /dev/null
wait $bg
gmux-simctl fault none > /dev/null
if wait_until 5 sh -c "[ \"\$(sed -n 's/^hotplug_wakes: //p' '$(gmux_debugfs)/dgpu_power')\" -gt $h0 ]" > /dev/null; then
	pass apple_gmux_ng runpm-hotplug-during-power-change "HOTPLUG while a power-on held the lock: hotplug_wakes $h0 -> $(rp hotplug_wakes)"
else
	fail apple_gmux_ng runpm-hotplug-during-power-change "HOTPLUG while a power-on held the lock: hotplug_wakes $h0 -> $(rp hotplug_wakes); $(state)"
fi
[ -e "$TEST_GPU/$D/hold" ] && echo 0 > "$TEST_GPU/$D/hold" 2> /dev/null
off_within 10 > /dev/null

# A power-on the gmux does not complete: the resume fails, it is reported,
# and the dGPU's driver is not run on an unpowered dGPU.
dmesg_mark runpm-stuck
gmux-simctl fault power-stuck > /dev/null
r0=$(runpm_of "$D" resumes)
if echo 1 > "$TEST_GPU/$D/hold" 2> /dev/null; then held=yes; else held=no; fi
msg=$(dmesg_since runpm-stuck | grep -o 'cannot power .* on.*' | head -n 1)
if [ "$held" = no ] && [ "$(runpm_of "$D" resumes)" = "$r0" ] && [ "$(unpowered)" = 0 ] &&
   [ "$(rp errors)" -ge 1 ] && [ -n "$msg" ]; then
	pass apple_gmux_ng runpm-power-on-failure-reported "resume refused: '$msg'; the dGPU's driver did not run"
else
	fail apple_gmux_ng runpm-power-on-failure-reported "hold succeeded: $held, resumes $r0 -> $(runpm_of "$D" resumes), errors $(rp errors), log '$msg'; $(state)"
fi
gmux-simctl fault none > /dev/null
[ "$held" = yes ] && echo 0 > "$TEST_GPU/$D/hold"

# The failure does not wedge the dGPU's runtime PM: once the gmux works
# again the next resume goes through, and so after a reload.
sleep 1
if echo 1 > "$TEST_GPU/$D/hold" 2> /dev/null; then held=yes; else held=no; fi
st=$(cat "/sys/bus/pci/devices/$D/power/runtime_status")
if [ "$held" = yes ] && dgpu_is 1 && [ "$(unpowered)" = 0 ]; then
	pass apple_gmux_ng runpm-power-on-failure-retried "the gmux answers again: the next resume powered the dGPU (runtime_status $st)"
else
	fail apple_gmux_ng runpm-power-on-failure-retried "hold after the fault: $held, runtime_status $st; $(state)"
fi
[ "$held" = yes ] && echo 0 > "$TEST_GPU/$D/hold"
rmmod apple_gmux_ng
gmux_load
if echo 1 > "$TEST_GPU/$D/hold" 2> /dev/null; then held=yes; else held=no; fi
st=$(cat "/sys/bus/pci/devices/$D/power/runtime_status")
if [ "$held" = yes ] && [ "$st" != error ] && dgpu_is 1; then
	pass apple_gmux_ng runpm-power-on-failure-reload "after a reload: hold succeeded, runtime_status $st"
else
	fail apple_gmux_ng runpm-power-on-failure-reload "after a reload: hold $held, runtime_status $st; $(state)"
fi
[ "$held" = yes ] && echo 0 > "$TEST_GPU/$D/hold"
off_within 10 > /dev/null

# A cut the gmux carries out but never signals (fault power-silent: the
# power changes, no POWER interrupt; a gmux answering too late, as the
# debug kernel's guest once made one): the driver cannot tell whether the
# dGPU lost power, so it must not take it for powered. Its driver's next
# resume must find it powered.
echo 1 > "$TEST_GPU/$D/hold"
dmesg_mark power-silent
e0=$(rp errors)
u0=$(unpowered)
gmux-simctl fault power-silent > /dev/null
echo 0 > "$TEST_GPU/$D/hold"
wait_until 10 sh -c "[ \"\$(sed -n 's/^errors: //p' '$(gmux_debugfs)/dgpu_power')\" != '$e0' ]" > /dev/null
sleep 2
gmux-simctl fault none > /dev/null
echo 1 > "$TEST_GPU/$D/hold"
st=$(runpm_of "$D" status)
on=$(gmux-simctl get dgpu_on)
echo 0 > "$TEST_GPU/$D/hold"
if [ "$(rp errors)" != "$e0" ] && [ "$st" = active ] && [ "$on" = 1 ] && [ "$(unpowered)" = "$u0" ] &&
   dmesg_since power-silent | grep -q 'power unknown after a failed cut'; then
	pass apple_gmux_ng runpm-cut-unconfirmed "cut not confirmed (errors $e0 -> $(rp errors)): taken as off, the next resume powered the dGPU before its driver ran"
else
	fail apple_gmux_ng runpm-cut-unconfirmed "errors $e0 -> $(rp errors), dGPU '$st', sim dgpu_on $on, unpowered $u0 -> $(unpowered), log: $(dmesg_since power-silent | grep -c 'power unknown'); $(state)"
fi
off_within 10 > /dev/null

# An eGPU is not the gmux's dGPU (nouveau and amdgpu tell them apart by
# pci_is_thunderbolt_attached()). TEST ONLY: the dGPU stand-in is marked
# Thunderbolt-attached by the fake GPU driver (QEMU cannot present Intel's
# Thunderbolt capability); the gmux must then leave it alone.
rmmod apple_gmux_ng
echo 1 > "$TEST_GPU/$D/thunderbolt"
gmux_load
sleep 2
if [ "$(rp dgpu)" = none ] && dgpu_is 1; then
	pass apple_gmux_ng runpm-egpu-not-taken "stand-in marked Thunderbolt-attached (TEST ONLY is_thunderbolt, not a real eGPU): not linked, its power left alone"
else
	fail apple_gmux_ng runpm-egpu-not-taken "stand-in marked Thunderbolt-attached (TEST ONLY is_thunderbolt): dgpu '$(rp dgpu)'; $(state)"
fi
rmmod apple_gmux_ng
echo 0 > "$TEST_GPU/$D/thunderbolt"
gmux_load

# The firmware's link handshake (the profile's dgpu.asl: GFX0.PWRD, the
# Mac's own method on Names for its link registers, QEMU having no link;
# ../tables/zdgpu.asl asks the fake GPU driver whether the dGPU has power
# at each call): the link goes down (PWRD(1)) before every cut, up
# (PWRD(0)) after every power-on and before the dGPU's driver resumes.
GFX='\_SB_.PCI0.S18_.GFX0'
gfx() { tb_eval "$GFX.$1"; }
zdg() { tb_eval "\_SB_.PCI0.S18_.$1"; }
if [ -n "$(gfx ZLNK)" ]; then
	dn=$(zdg ZDN1)
	up=$(zdg ZUP0)
	ld=$(( $(runpm_of "$D" link_down) + $(runpm_of "$A" link_down 2>/dev/null || echo 0) ))
	if [ "$(zdg ZSIN)" = 1 ] && [ "$dn" -ge 1 ] && [ "$up" -ge 1 ] && [ "$(zdg ZBAD)" = 0 ] &&
	   [ "$ld" = 0 ] && [ "$(gmux_sw link_handshake)" = PWRD ] && [ "$(gmux_sw link_failures)" = 0 ]; then
		pass apple_gmux_ng runpm-link-handshake "PWRD(1) $dn times, each before a cut; PWRD(0) $up times, each after power-on; no driver resumed on a link the firmware had down (the firmware's method; its link registers emulated: QEMU has none)"
	else
		fail apple_gmux_ng runpm-link-handshake "PWRD(1) $dn, PWRD(0) $up, on an unpowered dGPU $(zdg ZBAD) (last PWRD($(zdg ZBDA)), handler $(zdg ZSIN)), resumes on a link down $ld; driver: handshake '$(gmux_sw link_handshake)', failures $(gmux_sw link_failures)"
	fi
	# a link that does not train to full width: said, and the dGPU resumes
	dmesg_mark link-narrow
	f0=$(gmux_sw link_failures)
	gfx "ZSFL 1" > /dev/null
	off_within 10 > /dev/null
	echo 1 > "$TEST_GPU/$D/hold"
	st=$(runpm_of "$D" status)
	echo 0 > "$TEST_GPU/$D/hold"
	gfx "ZSFL 0" > /dev/null
	if [ "$st" = active ] && [ "$(gmux_sw link_failures)" = $((f0 + 1)) ] &&
	   dmesg_since link-narrow | grep -q 'did not train to full width'; then
		pass apple_gmux_ng runpm-link-narrow "PWRD(0) returning 1 is logged and counted; the dGPU resumed all the same"
	else
		fail apple_gmux_ng runpm-link-narrow "dGPU '$st', link failures $f0 -> $(gmux_sw link_failures), log: $(dmesg_since link-narrow | grep -c 'full width')"
	fi
	off_within 10 > /dev/null
	fw_trace_take runpm-link-narrow apple_gmux_ng
fi

# The audio function removed while the gmux is being removed (TEST ONLY:
# test_unlink_delay_ms holds the removal 1.5 s before the unlinking): the
# removal's links are not deleted twice (with the PCI notifier gone, the
# driver would delete a link the driver core already freed).
if [ -n "$A" ]; then
	rmmod apple_gmux_ng
	gmux_load test_unlink_delay_ms=1500
	rmmod apple_gmux_ng &
	bg=$!
	sleep 0.5
	echo 1 > "/sys/bus/pci/devices/$A/remove"
	wait $bg
	if ! grep -q "^apple_gmux_ng " /proc/modules && dgpu_is 1 && [ ! -e "/sys/bus/pci/devices/$A" ]; then
		pass apple_gmux_ng runpm-unload-races-audio-removal "audio removed during the gmux's removal: unloaded, dGPU powered, nothing freed twice (the console scan checks the kernel)"
	else
		fail apple_gmux_ng runpm-unload-races-audio-removal "modules: $(cut -d ' ' -f 1 /proc/modules | tr '\n' ' '), sim dgpu_on $(gmux-simctl get dgpu_on)"
	fi
	echo 1 > /sys/bus/pci/rescan
fi
gpu_cold_check runpm-no-cold-access "$COLD_EXPECTED"
gpu_modules_out
if [ -e "$(power_dev)" ] || grep -q "^apple_gmux_ng " /proc/modules; then
	fail apple_gmux_ng runpm-cleanup "modules still loaded: $(grep -E '^(apple_gmux_ng|macsupport_test_gpu) ' /proc/modules | cut -d ' ' -f 1 | tr '\n' ' ')"
fi

# NVIDIA's HDMI audio across a sleep with the dGPU switched OFF (nouveau
# without runpm=1: vga_switcheroo's OFF is what cuts it). An NVIDIA dGPU
# that lost power hides its audio function (01:00.1 reads all-ones) until
# the PCI core's quirk_nvidia_hda sets bit 25 of 0x488 on function 0,
# which it does at every resume of function 0. The gmux powers the dGPU
# for the sleep and restores its functions itself: it must run that
# fixup too, or the PCI core saves and restores an all-ones audio
# function. TEST ONLY: the fake GPU driver hides function 1 after each
# cut and plays the quirk (a kprobe on pci_fixup_device(): the real
# table entry matches NVIDIA's vendor id, not QEMU's); after the sleep
# and ON (which runs no fixup, as nouveau's ON does not) the test runs
# the quirk by hand (nv_hda_quirk, as the next resume of function 0
# would) to read the audio function's registers back.
if [ -n "$A" ] && [ -e "/sys/bus/pci/devices/$A" ]; then
	modprobe macsupport_test_gpe_wire gpe="$EXPECT_GMUX_GPE"
	gmux_load
	dmesg_mark nv-hda
	modprobe macsupport_test_gpu
	acfg()
	{
		_f=/sys/bus/pci/devices/$A/config
		echo "cmd $(od -An -tx2 -j4 -N2 "$_f" | tr -d ' ') bar0 $(od -An -tx4 -j16 -N4 "$_f" | tr -d ' ') irq $(od -An -tx1 -j60 -N1 "$_f" | tr -d ' ')"
	}
	nv() { echo "hidden $(cold_of nv_hda_hidden) reads $(cold_of nv_hda_reads) writes $(cold_of nv_hda_writes) quirk runs $(cold_of nv_hda_quirk_runs)"; }
	if wait_until 10 sh -c "[ -e '$TEST_GPU/$D/state' ] && grep -q ':DIS:' '$VGASR'" > /dev/null &&
	   [ "$(cold_of nv_hda)" = 1 ]; then
		base=$(acfg)
		echo OFF > "$VGASR"
		pc0=$(gmux_sw power_changes) c0=$(cold_accesses) offs0=$(gmux-simctl get dgpu_offs)
		r0=$(cold_of nv_hda_reads) w0=$(cold_of nv_hda_writes) q0=$(cold_of nv_hda_quirk_runs)
		slept=
		if dgpu_is 0; then
			echo 1 > /sys/module/suspend/parameters/pm_test_delay 2>/dev/null
			echo platform > /sys/power/pm_test
			if echo mem > /sys/power/state 2>/tmp/err || echo freeze > /sys/power/state 2>>/tmp/err; then
				slept=1
			fi
			echo none > /sys/power/pm_test
		fi
		during="power changes $pc0 -> $(gmux_sw power_changes), cuts $offs0 -> $(gmux-simctl get dgpu_offs), $(nv)"
		r1=$(cold_of nv_hda_reads) w1=$(cold_of nv_hda_writes) q1=$(cold_of nv_hda_quirk_runs) c1=$(cold_accesses)
		off_after=$(gmux-simctl get dgpu_on)
		echo ON > "$VGASR"
		echo 1 > "$TEST_GPU/nv_hda_quirk"
		after=$(acfg)
		if [ -n "$slept" ] && [ "$off_after" = 0 ] && [ "$(gmux_sw power_changes)" = $((pc0 + 3)) ] &&
		   [ "$r1" = "$r0" ] && [ "$w1" = "$w0" ] && [ "$q1" -gt "$q0" ] && [ "$c1" = "$c0" ] &&
		   [ "$after" = "$base" ] && case "$after" in *ffff*) false ;; *) true ;; esac; then
			pass apple_gmux_ng runpm-nvidia-hda-across-sleep "switched OFF, pm_test=platform sleep: the gmux powered the dGPU and ran fn0's resume fixups before the PCI core met the audio function (quirk runs $q0 -> $q1, reads of the hidden function $r0 -> $r1, writes $w0 -> $w1); after ON, fn1 '$after' as before the OFF (emulated: the chip hiding fn1, the quirk's table entry; real: the PCI core's save/restore and fixup calls, apple_gmux_ng)"
		else
			fail apple_gmux_ng runpm-nvidia-hda-across-sleep "slept '$slept' ($(cat /tmp/err 2>/dev/null)), dGPU after $off_after; $during; cold accesses $c0 -> $c1; fn1 before OFF '$base', after ON '$after'; log: $(dmesg_since nv-hda | grep -E 'hides it|Unable to change|shows again' | head -n 3 | tr '\n' ' ')"
		fi
	else
		fail apple_gmux_ng runpm-nvidia-hda-across-sleep "setup: nouveau mode without runpm not a client, or no NVIDIA audio model (cold: $(tr '\n' ' ' < "$TEST_GPU/cold" 2>&1))"
	fi
	gpu_modules_out
fi
exit 0
