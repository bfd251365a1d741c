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
#   gmux must leave such a dGPU powered and say why, also when
#   vga_switcheroo switches it OFF (by hand, and by itself on every
#   DIS->IGD switch: amdgpu has no driver power control): amdgpu's runtime
#   PM goes on after that OFF, and its next suspend sends a BACO enter.
#   While a display is connected amdgpu refuses to runtime-suspend
#   (amdgpu_runtime_idle_check_display): no BACO then, BACO once unplugged.
# - nouveau (runpm=1) with an external display: a probe from user space
#   resumes (powers) the GPU, a lit CRTC holds it powered, unplugged (the
#   CRTC off) it is cut within the autosuspend delay.
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
# suspended, a BACO enter counted when the chip has no power, amdgpu's
# switcheroo OFF/ON as PCI steps, "connected is busy"; not its missing
# probe deferral; the external display: the fake driver's display file,
# ioctls that resume the GPU and nouveau's reference per lit CRTC, no
# hotplug interrupt, no EDID; mode=radeon: the driver's name, no runtime PM, radeon's
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

# D1: vga_switcheroo's OFF under amdgpu, by hand and as the power stage of
# a DIS->IGD switch. The driver's OFF (amdgpu_switcheroo_set_state) puts
# the chip in D3hot; its runtime PM goes on, and the next runtime suspend
# sends a BACO enter, the next resume a BACO exit, through the chip. The
# gmux must refuse the cut: the chip keeps power, no BACO meets it cold.
gst() { sed -n "s/^$1: //p" "$TEST_GPU/$D/state" 2>/dev/null; }
stay_on() { cat "$(gmux_pnp)/dgpu_power/stay_on_reason" 2>/dev/null; }
disp() { sed -n "s/^$1: //p" "$TEST_GPU/$D/display" 2>/dev/null; }
suspended_within() { wait_until "$1" sh -c "[ \"\$(sed -n 's/^status: //p' '$TEST_GPU/$D/runpm')\" = suspended ]"; }
astate()
{
	echo "sim dgpu_on $(gmux-simctl get dgpu_on) offs $(gmux-simctl get dgpu_offs)," \
		"dGPU $(runpm_of "$D" status) gpu_state $(gst gpu_state) unpowered $(gst unpowered)/$(runpm_of "$D" unpowered)," \
		"BACO enters $(runpm_of "$D" baco_enters) cold $(runpm_of "$D" baco_enter_cold) exit failures $(runpm_of "$D" baco_failures)," \
		"OFF refused $(gmux_sw switcheroo_off_refused), record $(gmux_sw dgpu_power), stay_on '$(stay_on)'"
}
# baco_cycle: the driver lets the GPU go (BACO enter), then takes it again
# (BACO exit); prints "suspended resumed" or what it got
baco_cycle()
{
	echo 0 > "$TEST_GPU/$D/hold"
	if suspended_within 5 > /dev/null; then _s=suspended; else _s=active; fi
	if echo 1 > "$TEST_GPU/$D/hold" 2>/dev/null; then _r=resumed; else _r=resume-failed; fi
	echo "$_s $_r"
}
if [ "$(gst switcheroo_client)" = 1 ]; then
	offs0=$(gmux-simctl get dgpu_offs) ref0=$(gmux_sw switcheroo_off_refused)
	dmesg_mark amdgpu-off
	echo 1 > "$TEST_GPU/$D/hold"
	echo OFF > "$VGASR"
	off_st=$(gst gpu_state) on_after=$(gmux-simctl get dgpu_on) reason=$(stay_on)
	cyc=$(baco_cycle)
	echo 0 > "$TEST_GPU/$D/hold"
	echo ON > "$VGASR"
	if [ "$off_st" = off ] && [ "$on_after" = 1 ] && [ "$cyc" = "suspended resumed" ] &&
	   [ "$(gmux-simctl get dgpu_offs)" = "$offs0" ] && [ "$(gmux-simctl get dgpu_on)" = 1 ] &&
	   [ "$(gmux_sw switcheroo_off_refused)" = $((ref0 + 1)) ] && [ "$(rp switcheroo_off_refused)" = $((ref0 + 1)) ] &&
	   [ "$(runpm_of "$D" baco_enter_cold)" = 0 ] && [ "$(runpm_of "$D" baco_failures)" = 0 ] &&
	   [ "$(gst unpowered)" = 0 ] && [ "$(gst gpu_state)" = on ] &&
	   case "$reason" in amdgpu:*BACO*) true ;; *) false ;; esac &&
	   { [ "$ref0" != 0 ] || dmesg_since amdgpu-off | grep -q 'OFF of the dGPU .* refused'; }; then
		pass apple_gmux_ng runpm-amdgpu-switcheroo-off-refused "OFF: the driver's OFF ran (D3hot), the gmux refused the cut (chip powered, cuts $offs0 -> $(gmux-simctl get dgpu_offs)); then BACO enter and exit on a powered chip ($cyc); ON resumed it; stay_on_reason '$reason'"
	else
		fail apple_gmux_ng runpm-amdgpu-switcheroo-off-refused "after OFF: gpu_state '$off_st', dgpu_on $on_after, BACO cycle '$cyc'; $(astate)"
	fi
	# DIS->IGD: vga_switchto_stage2 switches the old GPU OFF by itself
	offs0=$(gmux-simctl get dgpu_offs) ref0=$(gmux_sw switcheroo_off_refused)
	echo 1 > "$TEST_GPU/$D/hold"
	echo DIS > "$VGASR"
	on_dis=$(gmux_sw display)
	echo IGD > "$VGASR"
	off_st=$(gst gpu_state) on_after=$(gmux-simctl get dgpu_on)
	cyc=$(baco_cycle)
	echo 0 > "$TEST_GPU/$D/hold"
	if [ "$on_dis" = DIS ] && [ "$(gmux_sw display)" = IGD ] && [ "$off_st" = off ] && [ "$on_after" = 1 ] &&
	   [ "$cyc" = "suspended resumed" ] && [ "$(gmux-simctl get dgpu_offs)" = "$offs0" ] &&
	   [ "$(gmux_sw switcheroo_off_refused)" = $((ref0 + 1)) ] &&
	   [ "$(runpm_of "$D" baco_enter_cold)" = 0 ] && [ "$(runpm_of "$D" baco_failures)" = 0 ] &&
	   [ "$(gst unpowered)" = 0 ]; then
		pass apple_gmux_ng runpm-amdgpu-switch-igd-kept-powered "DIS then IGD: vga_switcheroo switched the amdgpu OFF (gpu_state $off_st), the gmux refused the cut; BACO enter and exit on a powered chip ($cyc)"
	else
		fail apple_gmux_ng runpm-amdgpu-switch-igd-kept-powered "panel after DIS '$on_dis', after IGD '$(gmux_sw display)'; after IGD: gpu_state '$off_st', dgpu_on $on_after, BACO cycle '$cyc'; $(astate)"
	fi
	echo ON > "$VGASR"
else
	# T2 on 6.1: amdgpu registers no client (the kernel's apple_gmux_detect()
	# misses the T2 gmux), so vga_switcheroo has one GPU client and takes no
	# command: neither OFF nor a switch can reach the handler
	if ! echo OFF > "$VGASR" 2>/dev/null && ! echo IGD > "$VGASR" 2>/dev/null &&
	   [ "$(gmux-simctl get dgpu_on)" = 1 ] && [ "$(gmux_sw switcheroo_off_refused)" = 0 ]; then
		pass apple_gmux_ng runpm-amdgpu-switcheroo-off-refused "no amdgpu vga_switcheroo client on this kernel (apple_gmux_detect() misses the T2 gmux before 6.4): vga_switcheroo refuses OFF and IGD itself, nothing reaches the handler; the chip stays powered (6.12 runs the OFF and the switch)"
	else
		fail apple_gmux_ng runpm-amdgpu-switcheroo-off-refused "no amdgpu client, yet a command went through or the power went: $(astate)"
	fi
fi

# D4: amdgpu refuses to runtime-suspend while a display is connected
# (amdgpu_runtime_idle_check_display): no BACO then; unplugged, it enters
# BACO. The power stays either way (the gmux never cuts under amdgpu).
suspended_within 10 > /dev/null
busy0=$(disp display_busy) offs0=$(gmux-simctl get dgpu_offs)
echo connect > "$TEST_GPU/$D/display"
sleep 2
cst=$(runpm_of "$D" status) creason=$(stay_on) busy1=$(disp display_busy)
echo disconnect > "$TEST_GPU/$D/display"
t0=$(uptime_cs)
if suspended_within 5 > /dev/null; then t=$(( ($(uptime_cs) - t0) * 10 )); else t=never; fi
if [ "$cst" = active ] && [ "$busy1" -gt "$busy0" ] && [ "$t" != never ] &&
   [ "$(gmux-simctl get dgpu_offs)" = "$offs0" ] && [ "$(gmux-simctl get dgpu_on)" = 1 ] &&
   [ "$creason" = "amdgpu: never cut, its BACO needs power; active (in use, or a display connected or lit)" ] &&
   [ "$(stay_on)" = "amdgpu: never cut, its BACO needs power; in BACO" ]; then
	pass apple_gmux_ng runpm-amdgpu-display-busy "display connected: the probe woke the GPU, its suspend refused $((busy1 - busy0)) times in 2 s (no BACO), stay_on_reason '$creason'; unplugged: BACO after ${t} ms (autosuspend 200), never cut"
else
	fail apple_gmux_ng runpm-amdgpu-display-busy "connected: status '$cst', refused $busy0 -> $busy1, stay_on '$creason'; unplugged: BACO after '$t' ms; $(astate)"
fi
gpu_cold_check runpm-amdgpu-no-cold-access
gpu_modules_out

# D4: nouveau (runpm=1) holds a runtime-PM reference per lit CRTC, and a
# connector probe from user space resumes the GPU (a power cycle when it
# was cut). Connected and dark, it is cut again; lit, it stays powered;
# unplugged (the CRTC off), it is cut within the autosuspend delay.
gmux_wire_on
gmux_load
modprobe macsupport_test_gpu runpm=1 autosuspend_ms=200
if wait_until 10 sh -c "[ -e '$TEST_GPU/$D/display' ] && [ \"\$(gmux-simctl get dgpu_on)\" = 0 ]" > /dev/null; then
	ons0=$(rp power_ons) offs0=$(gmux-simctl get dgpu_offs)
	echo connect > "$TEST_GPU/$D/display"
	if wait_until 5 sh -c "[ \"\$(gmux-simctl get dgpu_on)\" = 0 ]" > /dev/null; then dark=cut; else dark=powered; fi
	probe="ons $ons0 -> $(rp power_ons), wakes $(disp detect_wakes)"
	echo light > "$TEST_GPU/$D/display"
	offs1=$(gmux-simctl get dgpu_offs)
	sleep 2
	lst=$(runpm_of "$D" status) lreason=$(stay_on) lon=$(gmux-simctl get dgpu_on) offs2=$(gmux-simctl get dgpu_offs)
	if [ "$dark" = cut ] && [ "$(rp power_ons)" -ge $((ons0 + 2)) ] && [ "$(disp detect_wakes)" = 1 ] &&
	   [ "$lst" = active ] && [ "$lon" = 1 ] && [ "$offs2" = "$offs1" ] &&
	   [ "$lreason" = "its driver keeps the discrete GPU active (in use, a display lit)" ]; then
		pass apple_gmux_ng runpm-nouveau-display-lit-kept "connected: the probe woke the cut GPU ($probe), dark it was cut again; lit: powered 2 s (10 delays), stay_on_reason '$lreason'"
	else
		fail apple_gmux_ng runpm-nouveau-display-lit-kept "connected, dark: $dark ($probe); lit: dGPU '$lst', dgpu_on $lon, cuts $offs1 -> $offs2, stay_on '$lreason'; $(state)"
	fi
	echo disconnect > "$TEST_GPU/$D/display"
	t0=$(uptime_cs)
	if wait_until 5 sh -c "[ \"\$(gmux-simctl get dgpu_on)\" = 0 ]" > /dev/null; then t=$(( ($(uptime_cs) - t0) * 10 )); else t=never; fi
	if [ "$t" != never ] && [ "$(stay_on)" = none ] && [ "$(runpm_of "$D" unpowered)" = 0 ]; then
		pass apple_gmux_ng runpm-nouveau-display-unplugged-cut "unplugged (CRTC off): cut after ${t} ms (autosuspend 200 ms, 5 s allowed), stay_on_reason none"
	else
		fail apple_gmux_ng runpm-nouveau-display-unplugged-cut "unplugged: cut after '$t' ms; stay_on '$(stay_on)'; $(state)"
	fi
else
	fail apple_gmux_ng runpm-nouveau-display-lit-kept "the fake nouveau did not bind $D with runtime PM, or the dGPU was never cut: $(state)"
fi
gpu_cold_check runpm-nouveau-display-no-cold-access
gpu_modules_out

# radeon: vga_switcheroo's OFF only
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
