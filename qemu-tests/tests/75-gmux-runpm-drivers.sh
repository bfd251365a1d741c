# SPDX-License-Identifier: GPL-2.0
#
# The automatic dGPU power-off against what the real GPU drivers do on a
# Mac (read from Debian's 6.1 sources: nouveau_drm.c, radeon_kms.c,
# amdgpu_device.c, hda_intel.c), one driver at a time
# through the fake GPU driver's modes:
#
# - amdgpu (MacBookPro13,3 to 16,x): Debian's amdgpu runtime-suspends a
#   chip that claims BACO by default, and its runtime resume sends a BACO
#   exit to the chip first, which a chip whose power the gmux cut does not
#   answer ("No response from SMU": the dGPU is dead until reboot). The
#   gmux must leave such a dGPU powered and say why.
# - radeon (MacBookPro8,2/8,3, 11,5): no runtime PM on a Mac (it needs
#   ATPX), so the dGPU is never cut by runtime PM, and the reason says so.
#   vga_switcheroo's OFF is the one way to cut it: the driver suspends
#   the chip (set_gpu_state), then the handler cuts the power; ON powers it
#   before the driver resumes the chip. Both go through the gmux's one
#   power owner, so the record says off and who cut it; for a system
#   sleep it is powered with the state radeon saved (the PCI core saves
#   and restores it across the sleep) and cut again after; unloading
#   apple_gmux_ng leaves it off (radeon believes it off; the reloaded
#   handler powers it on ON).
#
# - nouveau's HDMI audio under snd_hda_intel (every nouveau Mac): it
#   keeps its power (keep_power: no _PR3 on a Mac's root port) until
#   vga_switcheroo binds it to the DIS, which needs the handler and both
#   GPU clients; until then it holds the dGPU on (through the kernel's
#   quirk_gpu_hda link, here the module's own), and the reason says so.
#   apple_gmux_ng registering its handler is what frees it.
#
# Real: runtime PM, device links, apple_gmux_ng, the gmux protocol over the
# simulator window. Emulated: the GPU (QEMU's secondary-vga, cold while
# unpowered) and its driver (macsupport_test_gpu mode=amdgpu: the driver's
# name, BACO runtime PM, a resume that fails if the power was cut while
# suspended; not its missing probe deferral or its "connected is busy"
# idle check; mode=radeon: the driver's name, no runtime PM, radeon's
# config-space steps in set_gpu_state, its HDMI audio as hda_intel's audio
# client; amdgpu's and the audio's client only where the kernel's
# apple_gmux_detect() finds the gmux: not a T2 one on 6.1), the gmux's GPE
# (macsupport_test_gpe_wire). Not modelled: a
# firmware that powers the dGPU on wake, and the chip's config space lost
# with its power (QEMU's device keeps it: what the cold device catches is
# the access, not the loss).

[ -n "${EXPECT_DGPU_DEV:-}" ] || skip_test apple_gmux_ng "no dGPU on $PROFILE"
gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
D=$EXPECT_DGPU_DEV

rp() { sed -n "s/^$1: //p" "$(gmux_debugfs)/dgpu_power" 2>/dev/null; }
runpm_of() { sed -n "s/^$2: //p" "$TEST_GPU/$1/runpm" 2>/dev/null; }
state()
{
	echo "sim dgpu_on $(gmux-simctl get dgpu_on) offs $(gmux-simctl get dgpu_offs)," \
		"switch $(cat "$(gmux_pnp)/dgpu_power/power/runtime_status" 2>/dev/null)," \
		"dGPU $(runpm_of "$D" status) (driver $(basename "$(readlink "/sys/bus/pci/devices/$D/driver")"))," \
		"BACO failures $(runpm_of "$D" baco_failures), blocker '$(rp last_blocker)'"
}

# nouveau (runpm=1) and its HDMI audio, loaded before apple_gmux_ng: no
# handler, so vga_switcheroo is not enabled, and the audio keeps power.
# (The fake GPU driver's probe defers until the handler is there, as
# nouveau's does on 6.1; the audio driver binds at once, as hda_intel.)
A=${EXPECT_DGPU_AUDIO_DEV:-}
if [ -n "$A" ]; then
	gmux_wire_on
	dmesg_mark hda-keep-power
	modprobe macsupport_test_gpu runpm=1 autosuspend_ms=200
	sleep 2
	kp=$(runpm_of "$A" keep_power) ast=$(runpm_of "$A" status)
	gmux_load
	if wait_until 15 sh -c "[ \"\$(gmux-simctl get dgpu_on)\" = 0 ]" > /dev/null; then
		t=cut
	else
		t=powered
	fi
	if [ "$kp" = 1 ] && [ "$ast" = active ] && [ "$t" = cut ] && [ "$(runpm_of "$A" keep_power)" = 0 ] &&
	   dmesg_since hda-keep-power | grep -q 'keep_power cleared'; then
		pass apple_gmux_ng runpm-hda-keep-power-freed "audio without a handler: keep_power $kp, $ast; handler registered: keep_power 0, dGPU cut; $(state)"
	else
		fail apple_gmux_ng runpm-hda-keep-power-freed "before the handler: keep_power '$kp' audio '$ast'; after: keep_power '$(runpm_of "$A" keep_power)', dGPU $t; $(state)"
	fi
	fw_trace_take runpm-hda-keep-power-freed apple_gmux_ng
	gpu_cold_check runpm-hda-no-cold-access
	gpu_modules_out
fi

gmux_wire_on
gmux_load
dmesg_mark amdgpu-load
modprobe macsupport_test_gpu mode=amdgpu autosuspend_ms=200
if ! wait_until 10 sh -c "[ -e '$TEST_GPU/$D/runpm' ]" > /dev/null; then
	fail apple_gmux_ng runpm-amdgpu-baco-kept-powered "the fake amdgpu did not bind $D with runtime PM: $(dmesg_since amdgpu-load | grep -E 'gmux|test_gpu|amdgpu' | tail -n 3 | tr '\n' ' ')"
	gpu_modules_out
	exit 0
fi
offs0=$(gmux-simctl get dgpu_offs)
# BACO entered (the driver's runtime suspend), then ten autosuspend delays
if wait_until 10 sh -c "[ \"\$(sed -n 's/^status: //p' '$TEST_GPU/$D/runpm')\" = suspended ]" > /dev/null; then
	sleep 2
	blocker=$(rp last_blocker)
	offs1=$(gmux-simctl get dgpu_offs)
	echo 1 > "$TEST_GPU/$D/hold"
	resumed=$(runpm_of "$D" status)
	echo 0 > "$TEST_GPU/$D/hold"
	if [ "$offs1" = "$offs0" ] && [ "$(gmux-simctl get dgpu_on)" = 1 ] &&
	   [ "$resumed" = active ] && [ "$(runpm_of "$D" baco_failures)" = 0 ] &&
	   case "$blocker" in *amdgpu*BACO*) true ;; *) false ;; esac; then
		pass apple_gmux_ng runpm-amdgpu-baco-kept-powered "dGPU in BACO 2 s, never cut (blocker '$blocker'), resumed: BACO exit answered; vga_switcheroo client: $(sed -n 's/^switcheroo_client: //p' "$TEST_GPU/$D/state") (none where the kernel's apple_gmux_detect() misses the gmux: T2 on 6.1)"
	else
		fail apple_gmux_ng runpm-amdgpu-baco-kept-powered "cuts $offs0 -> $offs1, resumed '$resumed'; $(state)"
	fi
else
	fail apple_gmux_ng runpm-amdgpu-baco-kept-powered "the dGPU never runtime-suspended: $(state)"
fi
gpu_cold_check runpm-amdgpu-no-cold-access
gpu_modules_out

# radeon: vga_switcheroo's OFF only
gst() { sed -n "s/^$1: //p" "$TEST_GPU/$D/state" 2>/dev/null; }
stay_on() { cat "$(gmux_pnp)/dgpu_power/stay_on_reason" 2>/dev/null; }
rstate()
{
	echo "sim dgpu_on $(gmux-simctl get dgpu_on) offs $(gmux-simctl get dgpu_offs)," \
		"driver $(basename "$(readlink "/sys/bus/pci/devices/$D/driver")") gpu_state $(gst gpu_state) unpowered $(gst unpowered)," \
		"record $(gmux_sw dgpu_power) by $(gmux_sw dgpu_power_off_by), switch $(rp power) by $(rp off_by), stay_on '$(stay_on)'"
}
gmux_wire_on
gmux_load
dmesg_mark radeon-load
modprobe macsupport_test_gpu mode=radeon
if ! wait_until 10 sh -c "[ -e '$TEST_GPU/$D/state' ] && grep -q ':DIS:' '$VGASR'" > /dev/null; then
	fail apple_gmux_ng runpm-radeon-stays-on "the fake radeon did not bind $D as a client: $(dmesg_since radeon-load | grep -E 'gmux|test_gpu|radeon' | tail -n 3 | tr '\n' ' ')"
	gpu_modules_out
	exit 0
fi
offs0=$(gmux-simctl get dgpu_offs)
sleep 2
reason=$(stay_on)
if [ "$(gmux-simctl get dgpu_offs)" = "$offs0" ] && [ "$(gmux-simctl get dgpu_on)" = 1 ] &&
   [ "$reason" = "its driver does not let it runtime-suspend" ] && [ ! -e "$TEST_GPU/$D/runpm" ]; then
	pass apple_gmux_ng runpm-radeon-stays-on "no runtime PM under radeon: never cut in 2 s, stay_on_reason '$reason'"
else
	fail apple_gmux_ng runpm-radeon-stays-on "$(rstate)"
fi

pc0=$(gmux_sw power_changes)
echo OFF > "$VGASR"
if [ "$(gmux-simctl get dgpu_on)" = 0 ] && [ "$(gst gpu_state)" = off ] && [ "$(gst unpowered)" = 0 ] &&
   [ "$(gmux_sw dgpu_power)" = off ] && [ "$(gmux_sw dgpu_power_off_by)" = vga_switcheroo ] &&
   [ "$(rp power)" = off ] && [ "$(rp off_by)" = vga_switcheroo ] && [ "$(stay_on)" = none ] &&
   [ "$(gmux_sw power_changes)" = $((pc0 + 1)) ]; then
	pass apple_gmux_ng runpm-radeon-switcheroo-off "OFF: the driver suspended the chip powered, then the gmux cut it; one record: $(rstate)"
else
	fail apple_gmux_ng runpm-radeon-switcheroo-off "power changes $pc0 -> $(gmux_sw power_changes); $(rstate)"
fi
fw_trace_take runpm-radeon-switcheroo-off apple_gmux_ng

# Sleep with the dGPU switched OFF: the PCI core saves and restores every
# device's config space across it, the cut dGPU's and its audio's too
# (all-ones, and radeon's saved state overwritten). The gmux powers it for
# the sleep, with the state radeon saved, and cuts it again after: two
# power changes, no config access while cut.
if [ "$(gmux-simctl get dgpu_on)" = 0 ]; then
	pc0=$(gmux_sw power_changes) c0=$(cold_accesses) offs0=$(gmux-simctl get dgpu_offs)
	echo 1 > /sys/module/suspend/parameters/pm_test_delay 2>/dev/null
	echo platform > /sys/power/pm_test
	if echo mem > /sys/power/state 2>/tmp/err || echo freeze > /sys/power/state 2>>/tmp/err; then
		echo none > /sys/power/pm_test
		if [ "$(gmux_sw power_changes)" = $((pc0 + 2)) ] && [ "$(gmux-simctl get dgpu_on)" = 0 ] &&
		   [ "$(gmux-simctl get dgpu_offs)" = $((offs0 + 1)) ] && [ "$(cold_accesses)" = "$c0" ] &&
		   [ "$(gmux_sw dgpu_power_off_by)" = vga_switcheroo ] && [ "$(gst unpowered)" = 0 ]; then
			pass apple_gmux_ng runpm-radeon-off-across-sleep "pm_test=platform: powered for the sleep and cut after it (power changes $pc0 -> $(gmux_sw power_changes)), no config access while cut; $(rstate)"
		else
			fail apple_gmux_ng runpm-radeon-off-across-sleep "power changes $pc0 -> $(gmux_sw power_changes), cuts $offs0 -> $(gmux-simctl get dgpu_offs), cold accesses $c0 -> $(cold_accesses) (last $(cold_of last)); $(rstate)"
		fi
	else
		echo none > /sys/power/pm_test
		fail apple_gmux_ng runpm-radeon-off-across-sleep "suspend test failed: $(cat /tmp/err)"
	fi
else
	fail apple_gmux_ng runpm-radeon-off-across-sleep "premise: dGPU not off before sleep: $(rstate)"
fi
fw_trace_take runpm-radeon-off-across-sleep apple_gmux_ng

# Unloading apple_gmux_ng leaves a dGPU vga_switcheroo switched OFF off;
# the reloaded handler powers it before radeon resumes the chip on ON.
# Neither the unlink nor the link resumes the slot's functions meanwhile:
# hda_intel's audio client believes its function off (D3cold) until ON.
ar0=$(runpm_of "$A" resumes)
rmmod apple_gmux_ng
off_kept=$(gmux-simctl get dgpu_on)
gmux_load
reloaded=
if wait_until 10 sh -c "grep -q ':DIS:' '$VGASR'" > /dev/null; then
	reloaded="$(gmux_sw dgpu_power) $(gmux_sw dgpu_power_off_by)"
	echo ON > "$VGASR"
fi
if [ "$off_kept" = 0 ] && [ "$reloaded" = "off vga_switcheroo" ] && [ "$(gmux-simctl get dgpu_on)" = 1 ] &&
   [ "$(gst gpu_state)" = on ] && [ "$(gst unpowered)" = 0 ] && [ "$(gst state_lost)" = 0 ] &&
   [ "$(gmux_sw dgpu_power)" = on ] && [ "$(gmux_sw dgpu_power_off_by)" = none ]; then
	pass apple_gmux_ng runpm-radeon-off-kept-on-unload "unloaded with the dGPU OFF: left off; reloaded: taken for $reloaded; ON powered it before the driver resumed it, its saved state there: $(rstate)"
else
	fail apple_gmux_ng runpm-radeon-off-kept-on-unload "dgpu_on after unload $off_kept, record after reload '$reloaded', state_lost $(gst state_lost); $(rstate); $(tr '\n' ' ' < "$VGASR" 2>&1)"
fi
fw_trace_take runpm-radeon-off-kept-on-unload apple_gmux_ng
# (an AMD GPU's audio is no client where the kernel's apple_gmux_detect()
# misses the gmux, a T2 one on 6.1: then nothing resumes it on ON)
if [ -n "$A" ]; then
	if [ "$(runpm_of "$A" audio_client)" = 1 ]; then
		wait_until 5 sh -c "[ \"\$(sed -n 's/^resumes: //p' '$TEST_GPU/$A/runpm')\" -gt '$ar0' ]" > /dev/null
		resumed=$?
	else
		resumed=0
	fi
	if [ "$resumed" = 0 ] && [ "$(runpm_of "$A" unpowered)" = 0 ] && [ "$(runpm_of "$A" link_down)" = 0 ] &&
	   [ "$(runpm_of "$A" keep_power)" = 0 ]; then
		pass apple_gmux_ng runpm-radeon-audio-client "radeon's HDMI audio (audio client $(runpm_of "$A" audio_client), keep_power 0): not resumed while off, powered when it was (resumes $ar0 -> $(runpm_of "$A" resumes))"
	else
		fail apple_gmux_ng runpm-radeon-audio-client "audio client $(runpm_of "$A" audio_client), resumes $ar0 -> $(runpm_of "$A" resumes), unpowered $(runpm_of "$A" unpowered), link_down $(runpm_of "$A" link_down), keep_power $(runpm_of "$A" keep_power)"
	fi
fi
gpu_cold_check runpm-radeon-no-cold-access
gpu_modules_out
exit 0
