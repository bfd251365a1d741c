# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_DGPU_DEV,SIMULATOR,TEST_NO_DRIVER
# harness: replay
#
# A dGPU without a driver: owners of MacBookPro11,4/11,5 blacklist amdgpu
# and radeon to keep suspend working (omacom/omarchy issue 11382), and the
# unclaimed dGPU then sat powered for good. apple_gmux_ng allows runtime PM
# of the driverless dGPU and of its driverless audio function
# (dgpu_no_driver_off=1, the default), the PCI core runtime-suspends them
# (config space saved, left in D0) and the gmux cuts the slot while the
# panel is on the iGPU; the kernel powers it again for a config read
# (pci_config_pm_runtime_get()) and before a driver probes it (the device
# link: pm_runtime_get_suppliers() in __driver_probe_device()).
# Real: runtime PM, device links, the PCI core's driverless runtime PM and
# system sleep (pm_test=platform: direct-complete or not is the PM core's
# choice), apple_gmux_ng, the gmux protocol over the simulator window, the
# profile's firmware PWRD (replayed on the Mac's own tables at the
# checkpoints). Emulated: the GPUs (QEMU's secondary-vga and intel-hda,
# made cold by the fake GPU driver: their config space reads all-ones while
# the simulated gmux has them unpowered; "cold accesses" count what met
# them so), the iGPU's driver (the fake GPU driver, bound to the iGPU
# only), the HDMI audio's driver (its hda_intel mode) and the gmux's GPE
# (macsupport_test_gpe_wire). The owner's blacklist is a driver_override
# naming no driver, on the dGPU (fn0) and its audio (fn1): the stand-in
# GPU driver is loaded but never binds them until the test says so. On
# MacBookPro11,3 the real driver would be nouveau (it exists; this is an
# owner who blacklisted it), on the T2 Macs amdgpu.

[ -n "${EXPECT_DGPU_DEV:-}" ] || skip_test apple_gmux_ng "no dGPU on $PROFILE"
gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
D=$EXPECT_DGPU_DEV
A=${EXPECT_DGPU_AUDIO_DEV:-}
DELAY_MS=1000
PARAM=/sys/module/apple_gmux_ng/parameters/dgpu_no_driver_off
# config accesses to the unpowered dGPU made on purpose (gpu_cold_check)
COLD_EXPECTED=0

power_dev() { echo "$(gmux_pnp)/dgpu_power"; }
rp() { sed -n "s/^$1: //p" "$(gmux_debugfs)/dgpu_power" 2>/dev/null; }
runpm_of() { sed -n "s/^$2: //p" "$TEST_GPU/$1/runpm" 2>/dev/null; }
pm_of() { cat "/sys/bus/pci/devices/$1/$2" 2>/dev/null; }
reason() { cat "$(power_dev)/stay_on_reason" 2>/dev/null; }
dgpu_is() { [ "$(gmux-simctl get dgpu_on)" = "$1" ]; }
off_within() { wait_until "$1" dgpu_is 0; }
on_within() { wait_until "$1" dgpu_is 1; }
# config dword at offset $2 of device $1 as hex (a config read: powers it)
cfg() { od -An -tx4 -j "$2" -N4 "/sys/bus/pci/devices/$1/config" 2>/dev/null | tr -d ' '; }
state()
{
	echo "sim dgpu_on $(gmux-simctl get dgpu_on) power $(gmux-simctl get power) offs $(gmux-simctl get dgpu_offs)," \
		"switch $(cat "$(power_dev)/power/runtime_status" 2>/dev/null), dGPU $(pm_of "$D" power/runtime_status)" \
		"$(pm_of "$D" power_state) control $(pm_of "$D" power/control) driver '$(pci_driver "$D")'," \
		"audio $(pm_of "$A" power/runtime_status) $(pm_of "$A" power_state) driver '$(pci_driver "$A")'," \
		"offs $(rp power_offs) ons $(rp power_ons), reason '$(reason)', last blocker '$(rp last_blocker)'"
}
unpowered()
{
	_u=0
	for _f in $D $A; do
		[ -e "$TEST_GPU/$_f/runpm" ] && _u=$((_u + $(runpm_of "$_f" unpowered)))
	done
	echo "$_u"
}

# The owner's blacklist: nothing binds the dGPU or its audio function.
for f in $D $A; do
	echo macsupport_no_driver > "/sys/bus/pci/devices/$f/driver_override"
done
modprobe macsupport_test_gpe_wire gpe="$EXPECT_GMUX_GPE"
modprobe macsupport_test_acpi
# the iGPU's driver (i915's place), the cold device, PWRD's power space
modprobe macsupport_test_gpu runpm=1 autosuspend_ms=$DELAY_MS
dmesg_mark nodrv-load
gmux_load dgpu_autosuspend_ms=$DELAY_MS
panel=$(gmux-simctl get switch_display)

# Idle and driverless: cut once the autosuspend delay has passed.
if [ -n "$(pci_driver "$D")" ] || { [ -n "$A" ] && [ -n "$(pci_driver "$A")" ]; }; then
	fail apple_gmux_ng nodrv-cut "premise: a driver is bound: $(state)"
elif t=$(off_within 15); then
	if [ "$(cat "$(power_dev)/state")" = off ] && [ "$(cat "$(power_dev)/off_by")" = runtime_pm ] &&
	   [ "$(cat "$(power_dev)/power/runtime_status")" = suspended ] && [ "$(reason)" = none ] &&
	   [ "$(gmux-simctl get power)" = 0 ] && [ "$(pm_of "$D" power_state)" = D3cold ] &&
	   [ "$(pm_of "$D" power/control)" = auto ] &&
	   { [ -z "$A" ] || [ "$(pm_of "$A" power_state)" = D3cold ]; } &&
	   dmesg_since nodrv-load | grep -q "dGPU $D: power cut .*(no driver: cut when unused)"; then
		pass apple_gmux_ng nodrv-cut "no driver on the dGPU or its audio, panel on the iGPU (SWITCH_DISPLAY $panel): cut ${t} s after the load (autosuspend ${DELAY_MS} ms); the gmux stand-in: DISCRETE_POWER $(gmux-simctl get power), rails off; $(state)"
	else
		fail apple_gmux_ng nodrv-cut "off, but: $(state); log: $(dmesg_since nodrv-load | grep -o 'dGPU .*power cut.*' | head -n 1)"
	fi
else
	fail apple_gmux_ng nodrv-cut "still powered 15 s after the load: $(state)"
fi
fw_trace_take nodrv-cut apple_gmux_ng
# what the owner's report says (tools/macsupport-report, real)
report_dgpu() { macsupport-report 2> /dev/null | sed -n 's/^  dGPU driver: *//p'; }
l=$(report_dgpu)
if [ "$l" = "none: the dGPU has no driver: cut" ]; then
	pass apple_gmux_ng nodrv-report "macsupport-report: dGPU driver: $l"
else
	fail apple_gmux_ng nodrv-report "macsupport-report's dGPU driver line: '$l'; $(state)"
fi

# A config read (what lspci does) powers it first and reads the real
# device; then it goes off again by itself.
c0=$(cold_accesses)
o0=$(rp power_ons)
vid=$(cfg "$D" 0)
bar0=$(cfg "$D" 16)
c1=$(cold_accesses)
o1=$(rp power_ons)
if [ "$vid" = 11111234 ] && [ "$c1" = "$c0" ] && [ "$o1" -gt "$o0" ] && [ "$(cold_of enabled)" = 1 ] &&
   t=$(off_within 15); then
	pass apple_gmux_ng nodrv-config-read "a config read powered it (power_ons $o0 -> $o1) and read $vid, not all-ones (no cold access); off again ${t} s later"
else
	fail apple_gmux_ng nodrv-config-read "read '$vid', power_ons $o0 -> $o1, cold accesses $c0 -> $c1 (cold device $(cold_of enabled)); $(state)"
fi
fw_trace_take nodrv-off-again apple_gmux_ng

# The opt-out: dgpu_no_driver_off=0 powers it and keeps it on, and says
# why; back to 1, it is cut again.
echo 0 > "$PARAM"
if on_within 5 > /dev/null && sleep 2 && dgpu_is 1 &&
   [ "$(reason)" = "the discrete GPU has no driver (dgpu_no_driver_off=0)" ] &&
   [ "$(pm_of "$D" power/control)" = on ]; then
	pass apple_gmux_ng nodrv-param-off "dgpu_no_driver_off=0: powered and kept on 2 s (2 delays); stay_on_reason '$(reason)'; power/control back to '$(pm_of "$D" power/control)'"
else
	fail apple_gmux_ng nodrv-param-off "$(state)"
fi
echo 1 > "$PARAM"
if t=$(off_within 15) && [ "$(reason)" = none ]; then
	pass apple_gmux_ng nodrv-param-on "dgpu_no_driver_off=1: cut ${t} s later"
else
	fail apple_gmux_ng nodrv-param-on "$(state)"
fi

# System sleep with it cut (pm_test=platform, the noirq phases included):
# it is neither powered for the sleep nor read cold (the PCI core would
# save all-ones as its state and write them back at its next resume). One
# config read of the cut dGPU is the driver's own at resume (whether the
# firmware powered it: gmux_power_link_present()), made on purpose.
if dgpu_is 0; then
	o0=$(rp power_ons)
	f0=$(gmux-simctl get dgpu_offs)
	c0=$(cold_accesses)
	echo 1 > /sys/module/suspend/parameters/pm_test_delay 2>/dev/null
	echo platform > /sys/power/pm_test
	if echo mem > /sys/power/state 2>/tmp/err || echo freeze > /sys/power/state 2>>/tmp/err; then
		echo none > /sys/power/pm_test
		c1=$(cold_accesses)
		o1=$(rp power_ons)
		f1=$(gmux-simctl get dgpu_offs)
		[ $((c1 - c0)) -le 1 ] && COLD_EXPECTED=$((COLD_EXPECTED + c1 - c0))
		sleep 1
		st="$(pm_of "$D" power/runtime_status) $(pm_of "$D" power_state)"
		# its saved state survived: a config read restores it as it was
		bar1=$(cfg "$D" 16)
		if [ "$o1" = "$o0" ] && [ "$f1" = "$f0" ] && [ $((c1 - c0)) -le 1 ] &&
		   [ "$st" = "suspended D3cold" ] && [ "$bar1" = "$bar0" ] && off_within 15 > /dev/null; then
			pass apple_gmux_ng nodrv-sleep "pm_test=platform $(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/power/mem_sleep): never powered (power_ons $o0, cuts $f0 -> $f1), $((c1 - c0)) cold read (the driver's own at resume), still $st after; a config read after finds BAR0 $bar1 as before (no all-ones state restored)"
		else
			fail apple_gmux_ng nodrv-sleep "power_ons $o0 -> $o1, sim cuts $f0 -> $f1, cold accesses $c0 -> $c1 (last $(cold_of last)), after: '$st', BAR0 $bar0 -> '$bar1'; $(state)"
		fi
	else
		echo none > /sys/power/pm_test
		fail apple_gmux_ng nodrv-sleep "suspend test failed: $(cat /tmp/err)"
	fi
else
	fail apple_gmux_ng nodrv-sleep "premise: not cut before the sleep: $(state)"
fi
off_within 15 > /dev/null
fw_trace_take nodrv-sleep apple_gmux_ng

# The audio's driver binds while the slot is cut (hda_intel's place, its
# vga_switcheroo audio client): it finds the slot powered, then keeps it
# on (keep_power, as hda_intel does until vga_switcheroo binds it to its
# GPU's driver, which a blacklisted GPU never has), and the reason says so.
# On the stand-in's nouveau model (mode=nouveau, nv_hda 1) the cut hid the
# audio function until quirk_nvidia_hda runs on function 0: the reads of
# the hidden function (nv_hda_reads) must not grow.
if [ -n "$A" ]; then
	c0=$(cold_accesses)
	h0=$(cold_of nv_hda_reads)
	echo > "/sys/bus/pci/devices/$A/driver_override"
	echo "$A" > /sys/bus/pci/drivers/macsupport_test_gpu_audio/bind 2> /dev/null
	sleep 2
	c1=$(cold_accesses)
	h1=$(cold_of nv_hda_reads)
	l=$(report_dgpu)
	if [ "$(pci_driver "$A")" = macsupport_test_gpu_audio ] && [ "$c1" = "$c0" ] && [ "$(unpowered)" = 0 ] &&
	   [ "${h1:-0}" = "${h0:-0}" ] &&
	   [ "$(runpm_of "$A" keep_power)" = 1 ] && dgpu_is 1 && [ "$(reason)" = "$A is active" ] &&
	   [ "$l" = "none: the dGPU has no driver: kept on because $A is active" ]; then
		pass apple_gmux_ng nodrv-audio-driver-keeps-on "the audio's driver bound on a powered slot (no cold access; NVIDIA model $(cold_of nv_hda): hidden-audio reads ${h0:-n/a} -> ${h1:-n/a}, quirk runs $(cold_of nv_hda_quirk_runs)); its keep_power holds it on: stay_on_reason '$(reason)'; macsupport-report: '$l'"
	else
		fail apple_gmux_ng nodrv-audio-driver-keeps-on "driver '$(pci_driver "$A")', cold accesses $c0 -> $c1, hidden-audio reads (NVIDIA model $(cold_of nv_hda)) ${h0:-n/a} -> ${h1:-n/a}, unpowered $(unpowered), keep_power '$(runpm_of "$A" keep_power)', report '$l'; $(state)"
	fi
	# unbound: without a driver again, and cut
	echo "$A" > /sys/bus/pci/drivers/macsupport_test_gpu_audio/unbind
	if t=$(off_within 15) && [ "$(pm_of "$A" power/control)" = auto ]; then
		pass apple_gmux_ng nodrv-audio-unbound "the audio's driver unbound: taken again, cut ${t} s later"
	else
		fail apple_gmux_ng nodrv-audio-unbound "$(state)"
	fi
	echo macsupport_no_driver > "/sys/bus/pci/devices/$A/driver_override"
fi

# A GPU driver whose probe fails (amdgpu without firmware-amd-graphics,
# nouveau on a chip it does not know): the driver core powered the slot for
# the probe and gave the functions back; at DRIVER_NOT_BOUND the gmux takes
# them again (the driver pointer is still set then), and cuts.
echo -19 > /sys/module/macsupport_test_gpu/parameters/fail_probe
echo > "/sys/bus/pci/devices/$D/driver_override"
echo "$D" > /sys/bus/pci/drivers/macsupport_test_gpu/bind 2> /dev/null
echo 0 > /sys/module/macsupport_test_gpu/parameters/fail_probe
echo macsupport_no_driver > "/sys/bus/pci/devices/$D/driver_override"
if [ -z "$(pci_driver "$D")" ] && t=$(off_within 15) && [ "$(pm_of "$D" power/control)" = auto ] &&
   [ "$(unpowered)" = 0 ]; then
	pass apple_gmux_ng nodrv-failed-probe-cut "a GPU driver's probe failed (-ENODEV): taken again, cut ${t} s later (power/control $(pm_of "$D" power/control))"
else
	fail apple_gmux_ng nodrv-failed-probe-cut "driver '$(pci_driver "$D")'; $(state)"
fi

# The GPU's driver binds later (the owner loads it by hand): the driver
# core powers the slot before the probe, which finds the dGPU powered and
# answering; the slot is then its driver's (nouveau runpm=1's place).
c0=$(cold_accesses)
dmesg_mark nodrv-bind
echo > "/sys/bus/pci/devices/$D/driver_override"
echo "$D" > /sys/bus/pci/drivers/macsupport_test_gpu/bind 2> /dev/null
c1=$(cold_accesses)
if [ "$(pci_driver "$D")" = macsupport_test_gpu ] && [ "$c1" = "$c0" ] && [ "$(unpowered)" = 0 ] &&
   [ "$(runpm_of "$D" link_down)" = 0 ] &&
   ! dmesg_since nodrv-bind | grep -q 'while the dGPU is unpowered'; then
	pass apple_gmux_ng nodrv-bind-powered "the GPU's driver bound on the cut dGPU: powered before its probe (no cold access, no unpowered callback, link up)"
else
	fail apple_gmux_ng nodrv-bind-powered "driver '$(pci_driver "$D")', cold accesses $c0 -> $c1 (last $(cold_of last)), unpowered $(unpowered), link_down '$(runpm_of "$D" link_down)'; $(dmesg_since nodrv-bind | grep -m 2 -E 'unpowered|TEST ONLY: config' | tr '\n' ' ')"
fi
# Under a GPU driver the audio function without one is given back to the
# PCI core (power/control on): vga_switcheroo's OFF cuts without runtime
# PM, and a function taken then would save its state from a cold chip
# later. It keeps the dGPU powered through its audio link, and says so.
sleep 2
if [ -z "$A" ] && t=$(off_within 15) && [ "$(unpowered)" = 0 ]; then
	pass apple_gmux_ng nodrv-bound-runpm "bound, no audio function: its driver's runtime PM cut it ${t} s later"
elif [ -n "$A" ] && dgpu_is 1 && [ "$(unpowered)" = 0 ] && [ "$(pm_of "$A" power/control)" = on ] &&
     [ "$(reason)" = "$A has no driver, and its power/control is on" ]; then
	pass apple_gmux_ng nodrv-bound-runpm "bound, its audio without a driver given back (power/control $(pm_of "$A" power/control)): kept powered 2 s, stay_on_reason '$(reason)'"
else
	fail apple_gmux_ng nodrv-bound-runpm "$(state)"
fi

# Unbound again: without a driver, cut again; unloading apple_gmux_ng
# powers it and gives back the PCI core's power/control.
echo "$D" > /sys/bus/pci/drivers/macsupport_test_gpu/unbind
if t=$(off_within 15) && [ -z "$(pci_driver "$D")" ]; then
	pass apple_gmux_ng nodrv-unbound-cut "its driver unbound: cut ${t} s later"
else
	fail apple_gmux_ng nodrv-unbound-cut "$(state)"
fi
rmmod apple_gmux_ng
if dgpu_is 1 && [ "$(pm_of "$D" power/control)" = on ] &&
   { [ -z "$A" ] || [ "$(pm_of "$A" power/control)" = on ]; } && [ "$(cfg "$D" 0)" = 11111234 ]; then
	pass apple_gmux_ng nodrv-unload-gives-back "unloaded: powered, power/control 'on' again (the PCI core's default), answers"
else
	fail apple_gmux_ng nodrv-unload-gives-back "$(state)"
fi

gpu_cold_check nodrv-no-cold-access "$COLD_EXPECTED"
gpu_modules_out
for f in $D $A; do
	echo > "/sys/bus/pci/devices/$f/driver_override"
done
exit 0
