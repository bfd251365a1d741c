# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_DGPU_DEV,SIMULATOR,TEST_BOOT_DGPU sim --panel=dis
# harness: replay
#
# A Mac booted on the dGPU, in the order a real boot takes. The firmware
# left the panel on the dGPU (the simulated gmux starts with SWITCH_DISPLAY
# and SWITCH_DDC on the dGPU: gmux-sim --panel=dis, this boot's variant of
# the profile) and the dGPU is the kernel's boot VGA device. The iGPU's
# driver (i915) is loaded before apple_gmux_ng and defers its probe
# (vga_switcheroo_client_probe_defer: not the boot VGA device, an APP000B
# device exists, no handler with flags yet) until the gmux registers its
# handler; the driver core retries it when the gmux's driver has bound.
#
# - Without force_igd: the iGPU's driver probes while the panel is on the
#   dGPU and finds no eDP panel (i915 reads its DPCD once, at probe): the
#   panel stays on the dGPU, the dGPU stays powered, and stay_on_reason and
#   gpu-select say why. The boot-GPU preference (boot_gpu, gpu-power-prefs)
#   can be set to integrated for the next boot; it moves nothing now.
# - With force_igd=1: apple_gmux_ng moves the panel to the iGPU before it
#   registers its handler, so before the deferred probe; the iGPU's driver
#   finds the panel, and the dGPU is then cut.
#
# Real: vga_switcheroo (its probe deferral and client registration), the
# kernel's boot VGA device (vgaarb's vga_default_device(), which the fake
# GPU driver's boot_vga=dis moves to the dGPU stand-in through the kernel's
# own vga_set_default_device()), deferred probing, the driver core's bind
# notifications, runtime PM, apple_gmux_ng, the gmux protocol over the
# simulator window, OVMF's variable store. Emulated: the firmware's choice
# (QEMU's VGA at 00:02.0, the iGPU stand-in, still is the firmware's
# framebuffer: only the kernel's notion of the boot VGA device is moved,
# and the simulated gmux starts on the dGPU), i915 and nouveau (the fake
# GPU driver: eDP panel found only with SWITCH_DISPLAY on the iGPU at
# probe; nouveau.runpm=1's runtime PM), the panel (the simulator's mux
# registers), the gmux's GPE (macsupport_test_gpe_wire). Not emulated: a
# firmware that reads gpu-power-prefs at power-on (OVMF does not). Not
# shown: a panel switch made just after the handler registers, still in
# the gmux's probe, passes here too: the driver core retries the deferred
# probe when the gmux's driver has bound; on a real boot, another driver's
# bind in that window can retry i915 first.

[ -n "${EXPECT_IGPU_DEV:-}" ] && [ -n "${EXPECT_DGPU_DEV:-}" ] || skip_test apple_gmux_ng "no iGPU and dGPU pair on $PROFILE"
gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
[ "$EXPECT_GMUX_KIND" != classic ] || skip_test apple_gmux_ng "an LVDS panel (classic gmux) is found through the DDC switch wherever it is"
I=$EXPECT_IGPU_DEV
D=$EXPECT_DGPU_DEV

igd_panel() { sed -n 's/^panel: //p' "$TEST_GPU/$I/state" 2>/dev/null; }
stay_on() { cat "$(gmux_pnp)/dgpu_power/stay_on_reason" 2>/dev/null; }
igd_bound() { [ -e "$TEST_GPU/$I/state" ]; }
dgpu_cut() { [ "$(gmux-simctl get dgpu_on)" = 0 ]; }
# line MARK PATTERN: the number of the first kernel log line since MARK
# matching PATTERN, or 0
line()
{
	_l=$(dmesg_since "$1" | grep -n -m 1 -- "$2" | cut -d : -f 1)
	echo "${_l:-0}"
}
# in_order MARK PATTERN...: each PATTERN is logged, each after the one before
in_order()
{
	_m=$1
	shift
	_prev=0
	for _p in "$@"; do
		_n=$(line "$_m" "$_p")
		[ "$_n" -gt "$_prev" ] || return 1
		_prev=$_n
	done
}
what()
{
	echo "panel '$(igd_panel)', switch_display $(gmux-simctl get switch_display)," \
		"igd_driver_probe '$(gmux_sw igd_driver_probe)', stay_on '$(stay_on)'," \
		"sim dgpu_on $(gmux-simctl get dgpu_on) offs $(gmux-simctl get dgpu_offs)," \
		"vga_switcheroo '$(vgasr_line DIS)'"
}
# gpu_load: the GPU drivers first, as udev loads i915 and nouveau at boot
gpu_load()
{
	modprobe macsupport_test_gpu boot_vga=dis runpm=1 autosuspend_ms=200 panel=edp &&
		wait_until 10 sh -c "[ -e '$TEST_GPU/$D/runpm' ]" > /dev/null
}
# igd_deferred MARK: the dGPU is the boot VGA device and bound, the iGPU
# deferred and unbound
igd_deferred()
{
	[ "$(cat "/sys/bus/pci/devices/$I/boot_vga" 2>/dev/null)" = 0 ] &&
		dmesg_since "$1" | grep -q "$D: TEST ONLY: fake GPU bound.*(boot VGA device)" &&
		[ "$(test_gpu_defers "$I")" -ge 1 ] && ! igd_bound && [ -z "$(pci_driver "$I")" ]
}
deferred_what()
{
	echo "boot_vga of $I '$(cat "/sys/bus/pci/devices/$I/boot_vga" 2>/dev/null)'," \
		"defers of $I $(test_gpu_defers "$I"), driver of $I '$(pci_driver "$I")'"
}

gpu_modules_out
modprobe macsupport_test_gpe_wire gpe="$EXPECT_GMUX_GPE"

if [ "$(gmux-simctl get switch_display)" = 3 ] && [ "$(gmux-simctl get switch_ddc)" = 2 ]; then
	pass apple_gmux_ng boot-dgpu-firmware "simulated gmux starts with the panel and DDC on the dGPU (gmux-sim --panel=dis; QEMU's VGA stays the firmware's framebuffer)"
else
	fail apple_gmux_ng boot-dgpu-firmware "switch_display $(gmux-simctl get switch_display), switch_ddc $(gmux-simctl get switch_ddc): the harness did not start the simulator on the dGPU"
fi

# --- without force_igd: the panel stays on the dGPU, and the dGPU powered ---
dmesg_mark boot-dgpu-plain
gpu_load
if igd_deferred boot-dgpu-plain; then
	pass apple_gmux_ng boot-dgpu-igd-defers "dGPU stand-in is the kernel's boot VGA device (moved by the fake driver) and bound; the iGPU's probe deferred (vga_switcheroo_client_probe_defer, as i915): $(deferred_what)"
else
	fail apple_gmux_ng boot-dgpu-igd-defers "$(deferred_what); $(dmesg_since boot-dgpu-plain | grep -E 'boot VGA|test_gpu|TEST ONLY' | tail -n 4 | tr '\n' ' ')"
fi
offs0=$(gmux-simctl get dgpu_offs)
gmux_load
wait_until 10 igd_bound > /dev/null
sleep 3
warned=$(dmesg_since boot-dgpu-plain | grep -c "driver probed while the panel was on the dGPU")
if in_order boot-dgpu-plain "vga_switcheroo handler registered" "$I: TEST ONLY: fake GPU bound" &&
   [ "$(igd_panel)" = none ] && sim_is switch_display 3 &&
   [ "$(gmux_sw igd_driver_probe)" = "panel on DIS" ] && [ "$warned" = 1 ] &&
   [ "$(gmux-simctl get dgpu_on)" = 1 ] &&
   [ "$(gmux-simctl get dgpu_offs)" = "$offs0" ] &&
   [ "$(stay_on)" = "the panel is on the discrete GPU; the iGPU's driver probed without it (see force_igd)" ] &&
   gpu-select status 2>&1 | grep -q "the iGPU's driver probed without it"; then
	pass apple_gmux_ng boot-dgpu-panel-stays "iGPU probed after the handler registered, panel on the dGPU: no eDP panel, warned once; the dGPU kept powered 3 s (its driver's runtime PM: $(sed -n 's/^status: //p' "$TEST_GPU/$D/runpm" 2>/dev/null)): $(what)"
else
	fail apple_gmux_ng boot-dgpu-panel-stays "order handler/iGPU bind lines $(line boot-dgpu-plain 'vga_switcheroo handler registered')/$(line boot-dgpu-plain "$I: TEST ONLY: fake GPU bound"), warnings $warned, dGPU runtime '$(sed -n 's/^status: //p' "$TEST_GPU/$D/runpm" 2>/dev/null)': $(what)"
fi

# The boot-GPU preference: the way to boot on the iGPU next time. It moves
# nothing now (and OVMF does not read it at power-on).
A=$(boot_gpu_attr)
before=$(cat "$A" 2>&1)
if echo integrated > "$A" 2> /tmp/err; then rc=0; else rc=1; fi
if [ "$rc" = 0 ] && [ "$(cat "$A")" = integrated ] && [ "$(prefs_bytes)" = 0700000001000000 ] &&
   sim_is switch_display 3 && [ "$(gmux-simctl get dgpu_on)" = 1 ] &&
   gpu-select status 2>&1 | grep -q "the iGPU's driver probed without it"; then
	pass apple_gmux_ng boot-dgpu-prefs-next-boot "boot_gpu was '$before', set to integrated (NVRAM $(prefs_bytes)) for the next boot; this boot's panel and dGPU unchanged: $(what)"
else
	fail apple_gmux_ng boot-dgpu-prefs-next-boot "rc $rc '$(cat /tmp/err)', boot_gpu '$(cat "$A" 2>&1)', NVRAM '$(prefs_bytes)': $(what)"
fi
echo unset > "$A"

# --- with force_igd=1: the panel to the iGPU before the handler, so before
# the iGPU's deferred probe; then the dGPU is cut ---
rmmod macsupport_test_gpu
rmmod apple_gmux_ng
before=$(gmux-simctl get switch_display)
dmesg_mark boot-dgpu-force
gpu_load
if igd_deferred boot-dgpu-force; then
	pass apple_gmux_ng boot-dgpu-igd-defers-again "fake GPU driver reloaded, no handler: $(deferred_what)"
else
	fail apple_gmux_ng boot-dgpu-igd-defers-again "$(deferred_what)"
fi
gmux_load force_igd=1
wait_until 10 igd_bound > /dev/null
if [ "$before" = 3 ] &&
   in_order boot-dgpu-force "force_igd: panel switched to the integrated GPU" \
	"vga_switcheroo handler registered" "$I: TEST ONLY: fake GPU bound" &&
   [ "$(igd_panel)" = found ] && sim_is switch_display 2 &&
   [ "$(gmux_sw igd_driver_probe)" = "panel on IGD" ] &&
   ! dmesg_since boot-dgpu-force | grep -q "driver probed while the panel was on the dGPU" &&
   t=$(wait_until 15 dgpu_cut) && [ "$(stay_on)" = none ]; then
	pass apple_gmux_ng boot-dgpu-force-igd "panel moved in the gmux's probe (logged before its handler line), the deferred iGPU probe after it found the eDP panel, dGPU cut ${t}s later: $(what)"
else
	fail apple_gmux_ng boot-dgpu-force-igd "SWITCH_DISPLAY before $before; log lines force/handler/iGPU bind $(line boot-dgpu-force 'force_igd: panel switched')/$(line boot-dgpu-force 'vga_switcheroo handler registered')/$(line boot-dgpu-force "$I: TEST ONLY: fake GPU bound"): $(what)"
fi
fw_trace_take boot-dgpu-force-igd apple_gmux_ng

gpu_cold_check boot-dgpu-no-cold-access
gpu_modules_out
# the kernel's boot VGA device given back with the fake driver
if [ "$(cat "/sys/bus/pci/devices/$I/boot_vga" 2>/dev/null)" = 1 ]; then
	pass apple_gmux_ng boot-dgpu-vga-restored "boot_vga of $I is 1 again after the fake driver's unload"
else
	fail apple_gmux_ng boot-dgpu-vga-restored "boot_vga of $I '$(cat "/sys/bus/pci/devices/$I/boot_vga" 2>&1)'"
fi
