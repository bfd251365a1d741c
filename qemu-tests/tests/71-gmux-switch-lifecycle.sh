# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_DGPU_DEV,TEST_LIFECYCLE
# harness: replay
#
# The vga_switcheroo handler's lifecycle:
# - MacBookPro8,1 (APP000B with no gmux behind it): no handler, ever; the
#   second display device's driver keeps deferring (what 6.1's
#   vga_switcheroo_client_probe_defer() does wherever APP000B exists);
# - apple_gmux_ng first, then the fake GPU driver: both GPUs bind at once;
# - unloading apple_gmux_ng unregisters the handler (vga_switcheroo
#   disables itself, its switch file goes, a display driver probing now
#   defers again); loading it again registers it again and switching works;
# - where the profile can point GMGP at a GPE that does not exist (ZGPB),
#   the gmux has no interrupt and power changes are completed by polling
#   the interrupt status.
# Own boot: switches change the default VGA device and vga_switcheroo's
# state for good, and the suite's shared boot would outgrow its time limit.

[ -n "${EXPECT_DGPU_DEV:-}" ] || skip_test apple_gmux_ng "no dGPU on $PROFILE"
D=$EXPECT_DGPU_DEV
I=$EXPECT_IGPU_DEV

if [ "$EXPECT_GMUX_KIND" = fake ]; then
	modprobe macsupport_test_gpu
	dmesg_mark fake-gmux
	modprobe apple_gmux_ng
	sleep 1
	drv=$(basename "$(readlink "$(gmux_pnp)/driver" 2>/dev/null)")
	if [ -z "$drv" ] && [ ! -e "$VGASR" ] && [ -z "$(pci_driver "$D")" ] &&
	   [ "$(pci_driver "$I")" = macsupport_test_gpu ] &&
	   ! dmesg_since fake-gmux | grep -q 'handler registered'; then
		pass apple_gmux_ng switch-fake-no-handler "gmux unbound, no vga_switcheroo handler; the second display device still defers ($(test_gpu_defers "$D") times), as 6.1 does wherever APP000B exists"
	else
		fail apple_gmux_ng switch-fake-no-handler "gmux driver '$drv', switch file $(ls "$VGASR" 2>&1), dGPU driver '$(pci_driver "$D")'"
	fi
	gpu_modules_out
	exit 0
fi
gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"

modprobe macsupport_test_gpe_wire gpe="$EXPECT_GMUX_GPE"
gmux_load
modprobe macsupport_test_gpu
if [ "$(pci_driver "$I")" = macsupport_test_gpu ] && [ "$(pci_driver "$D")" = macsupport_test_gpu ] &&
   [ "$(test_gpu_defers "$D")" = 0 ] && [ -e "$VGASR" ]; then
	pass apple_gmux_ng switch-gmux-first-no-defer "handler first: both GPUs bound at once, no deferral; $(tr '\n' ' ' < "$VGASR")"
else
	fail apple_gmux_ng switch-gmux-first-no-defer "iGPU '$(pci_driver "$I")', dGPU '$(pci_driver "$D")', dGPU defers $(test_gpu_defers "$D"), switch file $(ls "$VGASR" 2>&1)"
fi

# Unload: the handler goes first, vga_switcheroo disables itself.
dmesg_mark switch-unload
rmmod apple_gmux_ng
dis=$(dmesg_since switch-unload | grep -c 'vga_switcheroo: disabled')
# With no handler, a display driver probing now must defer again: the GPU
# that is not the default VGA device (a switch makes the new GPU the
# default; only the iGPU, class VGA, shows boot_vga).
if [ "$(cat "/sys/bus/pci/devices/$I/boot_vga")" = 1 ]; then N=$D; else N=$I; fi
# drivers_probe, not bind: only a probe through the bus puts a device that
# defers on the deferred-probe list, which a driver binding retries.
echo "$N" > /sys/bus/pci/drivers/macsupport_test_gpu/unbind
echo "$N" > /sys/bus/pci/drivers_probe 2> /dev/null
if [ "$dis" = 1 ] && [ ! -e "$VGASR" ] && [ -z "$(pci_driver "$N")" ]; then
	pass apple_gmux_ng switch-unload-unregisters "vga_switcheroo disabled, switch file gone, a probe of $N (not the default VGA device) defers again"
else
	fail apple_gmux_ng switch-unload-unregisters "'disabled' logged $dis times, switch file $(ls "$VGASR" 2>&1), $N driver '$(pci_driver "$N")'"
fi

dmesg_mark switch-reload
gmux_load
if wait_until 10 sh -c "[ -e $VGASR ] && [ \"\$(basename \"\$(readlink /sys/bus/pci/devices/$N/driver)\")\" = macsupport_test_gpu ]" > /dev/null; then
	echo IGD > "$VGASR"	# a no-op if the iGPU is the active client already
	echo DIS > "$VGASR"
	sim_is switch_display 3 && d3=1 || d3=0
	echo IGD > "$VGASR"
	if [ $d3 = 1 ] && sim_is switch_display 2 && sim_is dgpu_on 0 &&
	   [ "$(gmux_sw switch_failures)" = 0 ]; then
		pass apple_gmux_ng switch-reload-works "reloaded: handler registered again, dGPU bound again, DIS and IGD switches verified"
	else
		fail apple_gmux_ng switch-reload-works "DIS seen $d3; after IGD: display $(gmux-simctl get switch_display), dgpu_on $(gmux-simctl get dgpu_on), failures $(gmux_sw switch_failures); $(tr '\n' ' ' < "$VGASR")"
	fi
else
	fail apple_gmux_ng switch-reload-works "switch file $(ls "$VGASR" 2>&1), $N driver '$(pci_driver "$N")' 10 s after reload; $(dmesg_since switch-reload | grep -E 'gmux|switcheroo' | tail -n 2 | tr '\n' ' ')"
fi
fw_trace_take switch-reload-works apple_gmux_ng
gpu_cold_check switch-reload-no-cold-access
gpu_modules_out

# No GPE: power changes complete by polling the interrupt status.
modprobe macsupport_test_acpi
eval_acpi() { echo "$1" > /sys/kernel/debug/macsupport_test_acpi/eval; cat /sys/kernel/debug/macsupport_test_acpi/eval; }
case "$(eval_acpi "${EXPECT_GMUX_PATH}.ZGPB")" in
ok*)
	# Without a GPE for it the real gmux's line goes nowhere: no wire either.
	gmux_load
	modprobe macsupport_test_gpu
	# the iGPU active and the dGPU off, whichever was the default VGA device
	echo IGD > "$VGASR"
	echo OFF > "$VGASR"
	pc0=$(gmux_sw power_changes)
	t0=$(uptime_cs)
	echo ON > "$VGASR"
	echo OFF > "$VGASR"
	t1=$(uptime_cs)
	if [ "$(gmux_state gpe)" = -1 ] && [ "$(gmux_sw power_changes)" = $((pc0 + 2)) ] &&
	   [ "$(gmux_sw power_irq_missed)" = 0 ] && [ "$(gmux_sw power_failures)" = 0 ] &&
	   sim_is dgpu_on 0 && [ "$(gmux-simctl get int_status)" = 0 ]; then
		pass apple_gmux_ng switch-power-polled-without-gpe "no GPE: ON and OFF completed by polling the status in $(((t1 - t0) * 10)) ms, POWER bit cleared"
	else
		fail apple_gmux_ng switch-power-polled-without-gpe "gpe $(gmux_state gpe), power changes $pc0 -> $(gmux_sw power_changes), missed $(gmux_sw power_irq_missed), failures $(gmux_sw power_failures), dgpu_on $(gmux-simctl get dgpu_on), int_status $(gmux-simctl get int_status)"
	fi
	gpu_cold_check switch-polled-no-cold-access
	gpu_modules_out
	eval_acpi "${EXPECT_GMUX_PATH}.ZGPR" > /dev/null ;;
*)
	skip apple_gmux_ng switch-power-polled-without-gpe "this profile's gmux.asl has no ZGPB to take the GPE away" ;;
esac
# (after ZGPR: GMGP, a TEST ONLY fault while it pointed nowhere, is back)
fw_trace_take switch-power-polled-without-gpe apple_gmux_ng
rmmod macsupport_test_acpi
