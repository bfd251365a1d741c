# SPDX-License-Identifier: GPL-2.0
#
# i915 and the panel (Debian's 6.1 i915: intel_dp.c's eDP setup reads the
# panel's DPCD once, at probe; i915_switcheroo.c has no reprobe):
# on an eDP Mac (indexed and T2 gmux) i915 finds the panel only if the gmux
# has it on the iGPU when i915 probes (the eDP AUX channel is switched with
# the panel, and i915 never looks again: it has no vga_switcheroo
# reprobe). Probed while the panel was on the dGPU, it has no panel: the
# panel must stay on the dGPU, and so the dGPU powered. apple_gmux_ng notes
# where the panel was when the iGPU's driver probed, says so in the log,
# in its debugfs switch file and in the dGPU's stay_on_reason (which
# gpu-select status shows), and force_igd=1 (the panel to the iGPU before
# the handler is registered, which a Mac booted on the dGPU makes i915 wait
# for) is the way out; force_igd does not move the panel under an iGPU
# driver bound before the gmux (the screen would go dark). A classic gmux
# drives an LVDS panel whose EDID the iGPU's driver reads through the
# handler's DDC switch, wherever the panel is.
#
# Real: vga_switcheroo, the driver core's bind notifications, apple_gmux_ng,
# the gmux protocol over the simulator window. Emulated: i915 (the fake GPU
# driver's iGPU looks for the panel at probe as i915 does: eDP found only
# with SWITCH_DISPLAY on the iGPU, LVDS through vga_switcheroo_lock_ddc();
# not its VBT fallbacks), the panel (the simulator's mux registers). Not
# modelled: the iGPU stand-in is QEMU's boot VGA device, so it never defers
# its probe as i915 does on a Mac booted on the dGPU; the test loads it
# after apple_gmux_ng instead.

[ -n "${EXPECT_IGPU_DEV:-}" ] && [ -n "${EXPECT_DGPU_DEV:-}" ] || skip_test apple_gmux_ng "no iGPU and dGPU pair on $PROFILE"
gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
I=$EXPECT_IGPU_DEV
D=$EXPECT_DGPU_DEV
if [ "$EXPECT_GMUX_KIND" = classic ]; then
	panel=lvds
else
	panel=edp
fi

igd_panel() { sed -n 's/^panel: //p' "$TEST_GPU/$I/state" 2>/dev/null; }
stay_on() { cat "$(gmux_pnp)/dgpu_power/stay_on_reason" 2>/dev/null; }
gpu_load()
{
	modprobe macsupport_test_gpu runpm=1 autosuspend_ms=200 panel=$panel &&
		wait_until 10 sh -c "[ -e '$TEST_GPU/$D/runpm' ] && [ -e '$TEST_GPU/$I/state' ]" > /dev/null
}
dgpu_suspended() { [ "$(sed -n 's/^status: //p' "$TEST_GPU/$D/runpm" 2>/dev/null)" = suspended ]; }
what()
{
	echo "panel '$(igd_panel)', switch_display $(gmux-simctl get switch_display)," \
		"igd_driver_probe '$(gmux_sw igd_driver_probe)', stay_on '$(stay_on)'"
}

gpu_modules_out
modprobe macsupport_test_gpe_wire gpe="$EXPECT_GMUX_GPE"

# The panel on the dGPU (MDIS), then the iGPU's driver probes.
gmux_load
gpu_load
echo 1 > "$TEST_GPU/$D/hold"
echo MDIS > "$VGASR"
echo 0 > "$TEST_GPU/$D/hold"
rmmod macsupport_test_gpu
dmesg_mark igd-no-panel
gpu_load
wait_until 10 dgpu_suspended > /dev/null
warned=$(dmesg_since igd-no-panel | grep -c "driver probed while the panel was on the dGPU")
if [ "$panel" = edp ]; then
	if [ "$(igd_panel)" = none ] && sim_is switch_display 3 &&
	   [ "$(gmux_sw igd_driver_probe)" = "panel on DIS" ] && [ "$warned" = 1 ] &&
	   stay_on | grep -q "the iGPU's driver probed without it" &&
	   gpu-select status 2>&1 | grep -q "the iGPU's driver probed without it" &&
	   [ "$(gmux-simctl get dgpu_on)" = 1 ]; then
		pass apple_gmux_ng igd-probed-without-panel "eDP: $(what), warned once, dGPU powered"
	else
		fail apple_gmux_ng igd-probed-without-panel "eDP: $(what), warnings $warned, sim dgpu_on $(gmux-simctl get dgpu_on)"
	fi
else
	if [ "$(igd_panel)" = found ] && [ "$(gmux_sw igd_driver_probe)" = "panel on DIS" ] &&
	   [ "$warned" = 0 ] && [ "$(stay_on)" = "the panel is on the discrete GPU" ]; then
		pass apple_gmux_ng igd-probed-without-panel "LVDS: EDID read through the DDC switch: $(what), no warning"
	else
		fail apple_gmux_ng igd-probed-without-panel "LVDS: $(what), warnings $warned"
	fi
fi

# force_igd=1 under an iGPU driver bound before the gmux, the panel on the
# dGPU: on eDP the panel stays where it is; an LVDS panel moves.
rmmod apple_gmux_ng
dmesg_mark igd-force-late
gmux_load force_igd=1
if [ "$panel" = edp ]; then
	if sim_is switch_display 3 && [ "$(gmux_sw igd_driver_probe)" = "bound before the gmux" ] &&
	   dmesg_since igd-force-late | grep -q "force_igd: the iGPU's driver was bound before the gmux"; then
		pass apple_gmux_ng igd-force-late "eDP, iGPU driver bound first: panel kept on the dGPU; $(what)"
	else
		fail apple_gmux_ng igd-force-late "$(what); $(dmesg_since igd-force-late | grep force_igd)"
	fi
else
	if sim_is switch_display 2 && dmesg_since igd-force-late | grep -q 'force_igd: panel switched'; then
		pass apple_gmux_ng igd-force-late "LVDS: switched all the same (EDID through DDC); $(what)"
	else
		fail apple_gmux_ng igd-force-late "LVDS: $(what); $(dmesg_since igd-force-late | grep force_igd)"
	fi
fi

# The way out: force_igd=1 with no iGPU driver yet: the panel moves before
# the iGPU's driver probes, which then finds it, and the dGPU is cut.
echo 1 > "$TEST_GPU/$D/hold"
echo MDIS > "$VGASR"
echo 0 > "$TEST_GPU/$D/hold"
rmmod macsupport_test_gpu
rmmod apple_gmux_ng
before=$(gmux-simctl get switch_display)
dmesg_mark igd-force
gmux_load force_igd=1
gpu_load
if [ "$before" = 3 ] && sim_is switch_display 2 && [ "$(igd_panel)" = found ] &&
   [ "$(gmux_sw igd_driver_probe)" = "panel on IGD" ] &&
   ! dmesg_since igd-force | grep -q "driver probed while the panel was on the dGPU" &&
   wait_until 15 sh -c "[ \"\$(gmux-simctl get dgpu_on)\" = 0 ]" > /dev/null; then
	pass apple_gmux_ng igd-force-before-probe "panel moved at the gmux's probe, then the iGPU's driver found it and the dGPU was cut: $(what)"
else
	fail apple_gmux_ng igd-force-before-probe "SWITCH_DISPLAY before $before; $(what); sim dgpu_on $(gmux-simctl get dgpu_on)"
fi
fw_trace_take igd-force-before-probe apple_gmux_ng

gpu_cold_check igd-no-cold-access
gpu_modules_out
