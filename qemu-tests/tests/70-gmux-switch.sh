# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_DGPU_DEV,SIMULATOR,TEST_SWITCH
# harness: replay
#
# GPU switching through the real vga_switcheroo core. The test-only fake GPU driver binds the two display stand-ins (iGPU
# 00:02.0, dGPU 01:00.0) as vga_switcheroo clients; apple_gmux_ng registers
# the handler; every command written to /sys/kernel/debug/vgaswitcheroo/switch
# must change the simulated gmux as the command says, and the driver must
# count it as verified.
# Load order here: the fake GPU driver first, so the dGPU's driver defers
# (vga_switcheroo_client_probe_defer()) until the handler registers.
# Real: vga_switcheroo, deferred probe, the handler, register access over
# the simulator window. Emulated: the GPUs (set_gpu_state only records), and
# the gmux's GPE, fired by the test-only macsupport_test_gpe_wire while the
# simulator's interrupt status is pending.
# Then the DDC-only switch of classic gmux (switch_ddc).
# Own boot: switches change the default VGA device and vga_switcheroo's
# state for good, and the suite's shared boot would outgrow its time limit.
# The firmware calls (the profile's dgpu.asl: PWRD) are replayed on the
# Mac's own tables at the checkpoints: the dGPU off (IGD), on (ON), off
# (OFF).

[ -n "${EXPECT_DGPU_DEV:-}" ] || skip_test apple_gmux_ng "no dGPU on $PROFILE"
gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
D=$EXPECT_DGPU_DEV
I=$EXPECT_IGPU_DEV

modprobe macsupport_test_gpe_wire gpe="$EXPECT_GMUX_GPE"
modprobe macsupport_test_gpu
igpu_drv=$(pci_driver "$I")
dgpu_drv=$(pci_driver "$D")
defers=$(test_gpu_defers "$D")
if [ "$igpu_drv" = macsupport_test_gpu ] && [ -z "$dgpu_drv" ] && [ "$defers" -ge 1 ]; then
	pass apple_gmux_ng switch-dgpu-defers-without-handler "iGPU bound, dGPU deferred $defers time(s), no handler yet"
else
	fail apple_gmux_ng switch-dgpu-defers-without-handler "iGPU driver '$igpu_drv', dGPU driver '$dgpu_drv', dGPU defers $defers"
fi

dmesg_mark switch-load
gmux_load
if t=$(wait_until 10 sh -c "[ \"\$(basename \"\$(readlink /sys/bus/pci/devices/$D/driver)\")\" = macsupport_test_gpu ]"); then
	pass apple_gmux_ng switch-dgpu-binds-after-handler "dGPU bound ${t} s after apple_gmux_ng; $(gmux_sw handler), flags $(gmux_sw flags)"
else
	fail apple_gmux_ng switch-dgpu-binds-after-handler "dGPU driver '$(pci_driver "$D")' 10 s after the handler; handler '$(gmux_sw handler)'; $(dmesg_since switch-load | grep -E 'gmux|switcheroo' | tail -n 3 | tr '\n' ' ' | cut -c 1-200)"
fi
case "$EXPECT_GMUX_KIND" in
classic) want_flags=can_switch_ddc ;;
*) want_flags=needs_edp_config ;;
esac
if [ "$(gmux_sw flags)" = "$want_flags" ] && vgasr_line IGD | grep -q ":+:" &&
   vgasr_line DIS | grep -q "$D"; then
	pass apple_gmux_ng switch-handler-registered "flags $want_flags; $(tr '\n' ' ' < "$VGASR")"
else
	fail apple_gmux_ng switch-handler-registered "flags '$(gmux_sw flags)' (want $want_flags); switch file: $(tr '\n' ' ' < "$VGASR" 2>&1)"
fi
# Every emulated Mac has Thunderbolt: the external port is the dGPU's.
if sim_is switch_external 3 && [ "$(gmux_sw external_follows_panel)" = 0 ]; then
	pass apple_gmux_ng switch-external-wired-to-dgpu "Thunderbolt Mac: SWITCH_EXTERNAL = 3 (DIS), never switched"
else
	fail apple_gmux_ng switch-external-wired-to-dgpu "SWITCH_EXTERNAL $(gmux-simctl get switch_external), external_follows_panel $(gmux_sw external_follows_panel)"
fi

# cmd COMMAND DISPLAY DDC DGPU_ON NOTE: write COMMAND to the switch file (or,
# for COMMAND-lastclose, close the last DRM file), then the simulator must
# show SWITCH_DISPLAY, SWITCH_DDC (classic; '-' skips) and the dGPU power,
# the external port must stay with the dGPU, and no failure be counted.
cmd()
{
	_c=$1 _disp=$2 _ddc=$3 _pwr=$4
	[ "$EXPECT_GMUX_KIND" = classic ] || _ddc=-
	_sw0=$(gmux_sw switches) _pc0=$(gmux_sw power_changes)
	case "$_c" in
	*-lastclose) echo 1 > "$TEST_GPU/lastclose" ;;
	*) echo "$_c" > "$VGASR" ;;
	esac
	_ok=1
	sim_is switch_display "$_disp" || _ok=0
	[ "$_ddc" = - ] || sim_is switch_ddc "$_ddc" || _ok=0
	sim_is dgpu_on "$_pwr" || _ok=0
	[ "$(gmux-simctl get switch_external)" = 3 ] || _ok=0
	[ "$(gmux_sw switch_failures)" = 0 ] && [ "$(gmux_sw power_failures)" = 0 ] || _ok=0
	_st="display $(gmux-simctl get switch_display) ddc $(gmux-simctl get switch_ddc) dgpu_on $(gmux-simctl get dgpu_on) power $(gmux-simctl get power); switches $_sw0 -> $(gmux_sw switches), power changes $_pc0 -> $(gmux_sw power_changes)"
	if [ $_ok = 1 ]; then
		pass apple_gmux_ng "switch-cmd-$_c" "$5: $_st"
	else
		fail apple_gmux_ng "switch-cmd-$_c" "want display $_disp ddc $_ddc dgpu_on $_pwr: $_st, failures $(gmux_sw switch_failures)/$(gmux_sw power_failures); $(tr '\n' ' ' < "$VGASR")"
	fi
}

irq0=$(gmux_sw power_irq_missed)
cmd DIS 3 2 1 "panel to the dGPU"
sw=$(gmux_sw switches)
cmd IGD 2 1 0 "panel to the iGPU, dGPU powered off by vga_switcheroo"
fw_trace_take switch-cmd-igd apple_gmux_ng
if [ "$(gmux_sw switches)" = $((sw + 1)) ] && [ "$(gmux_sw dgpu_power)" = off ]; then
	pass apple_gmux_ng switch-verified-counted "each switch verified and counted ($(gmux_sw switches) so far), dGPU power $(gmux_sw dgpu_power)"
else
	fail apple_gmux_ng switch-verified-counted "switches $sw -> $(gmux_sw switches), dgpu_power $(gmux_sw dgpu_power)"
fi
cmd ON 2 1 1 "inactive dGPU powered on"
fw_trace_take switch-cmd-on apple_gmux_ng
cmd OFF 2 1 0 "inactive dGPU powered off"
fw_trace_take switch-cmd-off apple_gmux_ng
# Delayed switches: a client refuses (a DRM file is open), so only stage 1
# runs (the dGPU is powered); the mux moves on the last close.
echo N > "$TEST_GPU/can_switch"
cmd DDIS 2 1 1 "delayed: dGPU powered, mux not yet moved"
echo Y > "$TEST_GPU/can_switch"
cmd DDIS-lastclose 3 2 1 "last close: panel to the dGPU"
echo N > "$TEST_GPU/can_switch"
cmd DIGD 3 2 1 "delayed: mux not yet moved"
echo Y > "$TEST_GPU/can_switch"
cmd DIGD-lastclose 2 1 0 "last close: panel to the iGPU, dGPU off"
cmd MDIS 3 2 0 "mux only: panel to the (powered-off) dGPU, no power change"
cmd MIGD 2 1 0 "mux only: back to the iGPU"
if [ "$(gmux_sw power_irq_missed)" = "$irq0" ]; then
	pass apple_gmux_ng switch-power-by-interrupt "$(gmux_sw power_changes) power changes completed by the gmux's POWER interrupt (GPE 0x$(printf %02X "$EXPECT_GMUX_GPE") fired $(cat /sys/module/macsupport_test_gpe_wire/parameters/fired) times), none found only by the status"
else
	fail apple_gmux_ng switch-power-by-interrupt "power_irq_missed $irq0 -> $(gmux_sw power_irq_missed)"
fi

# A switch the gmux does not carry out is an error, logged and counted.
dmesg_mark switch-refuse
gmux-simctl fault refuse-switch > /dev/null
f0=$(gmux_sw switch_failures)
echo MDIS > "$VGASR"
msg=$(dmesg_since switch-refuse | grep -o 'display switch to DIS not carried out.*' | head -n 1)
if [ "$(gmux_sw switch_failures)" = $((f0 + 1)) ] && [ "$(gmux-simctl get switch_display)" = 2 ] &&
   [ -n "$msg" ] && [ "$(gmux_sw last_error)" = -5 ]; then
	pass apple_gmux_ng switch-refused-reported "MDIS refused by the gmux: $msg"
else
	fail apple_gmux_ng switch-refused-reported "failures $f0 -> $(gmux_sw switch_failures), display $(gmux-simctl get switch_display), last_error $(gmux_sw last_error), log '$msg'"
fi
gmux-simctl fault none > /dev/null

# A power change that never completes is an error, logged and counted.
dmesg_mark switch-power-stuck
gmux-simctl fault power-stuck > /dev/null
p0=$(gmux_sw power_failures)
t0=$(uptime_cs)
echo ON > "$VGASR"
t1=$(uptime_cs)
msg=$(dmesg_since switch-power-stuck | grep -o 'dGPU power on did not complete.*' | head -n 1)
if [ "$(gmux_sw power_failures)" = $((p0 + 1)) ] && [ "$(gmux-simctl get dgpu_on)" = 0 ] &&
   [ -n "$msg" ] && [ "$(gmux_sw last_error)" = -110 ] && [ "$(gmux_sw dgpu_power)" = unknown ]; then
	pass apple_gmux_ng switch-power-timeout-reported "ON never completed: '$msg' after $(((t1 - t0) * 10)) ms; counted"
else
	fail apple_gmux_ng switch-power-timeout-reported "power failures $p0 -> $(gmux_sw power_failures), dgpu_on $(gmux-simctl get dgpu_on), last_error $(gmux_sw last_error), dgpu_power $(gmux_sw dgpu_power), log '$msg'"
fi
gmux-simctl fault none > /dev/null

# A refused full switch: vga_switcheroo gets the error (it logs "switching
# failed stage 2"). Last: the core leaves no client active after it.
dmesg_mark switch-refuse-full
echo OFF > "$VGASR"
echo ON > "$VGASR"
gmux-simctl fault refuse-switch > /dev/null
echo DIS > "$VGASR"
core=$(dmesg_since switch-refuse-full | grep -o 'switching failed stage 2 -5' | head -n 1)
if [ -n "$core" ] && [ "$(gmux-simctl get switch_display)" = 2 ]; then
	pass apple_gmux_ng switch-refused-returned "vga_switcheroo: '$core'"
else
	fail apple_gmux_ng switch-refused-returned "core log '$core', display $(gmux-simctl get switch_display)"
fi
gmux-simctl fault none > /dev/null

# switch_ddc: on a classic gmux the inactive GPU's driver borrows the
# panel's DDC lines to read its EDID (vga_switcheroo_lock_ddc(), as
# drm_get_edid_switcheroo() does): the handler must move SWITCH_DDC alone,
# verified, and return the previous owner, and the unlock must put it back.
# Indexed and T2 gmux have no separate DDC mux: their handler offers no
# switch_ddc, and lock_ddc fails with -ENODEV, touching nothing.
sim_is switch_display 2
ddc0=$(gmux-simctl get switch_ddc)
n0=$(gmux_sw ddc_switches)
# The dGPU's driver holds the DDC lines for 2 s.
echo 2000 > "$TEST_GPU/$D/ddc" &
held=0
i=0
while [ $i -lt 15 ]; do
	[ "$(gmux-simctl get switch_ddc)" = 2 ] && [ "$(gmux-simctl get switch_display)" = 2 ] &&
		held=1
	sleep 0.1
	i=$((i + 1))
done
wait
res=$(cat "$TEST_GPU/$D/ddc")
if [ "$EXPECT_GMUX_KIND" = classic ]; then
	# VGA_SWITCHEROO_IGD is 0: the previous owner was the iGPU
	if [ "$ddc0" = 1 ] && [ $held = 1 ] && [ "$res" = 0 ] && sim_is switch_ddc 1 &&
	   [ "$(gmux_sw ddc_switches)" = $((n0 + 2)) ] && [ "$(gmux_sw ddc_failures)" = 0 ]; then
		pass apple_gmux_ng switch-ddc-lock "DDC 1 -> 2 (panel stays on the iGPU) while the dGPU's driver holds it, old owner IGD returned, back to 1 on unlock; 2 DDC switches verified"
	else
		fail apple_gmux_ng switch-ddc-lock "DDC before $ddc0, held on DIS seen $held, lock result $res, after $(gmux-simctl get switch_ddc), ddc switches $n0 -> $(gmux_sw ddc_switches), failures $(gmux_sw ddc_failures)"
	fi
	# The gmux refuses: the lock returns the error, vga_switcheroo does not switch back.
	dmesg_mark ddc-refuse
	gmux-simctl fault refuse-switch > /dev/null
	echo 0 > "$TEST_GPU/$D/ddc"
	res=$(cat "$TEST_GPU/$D/ddc")
	gmux-simctl fault none > /dev/null
	msg=$(dmesg_since ddc-refuse | grep -o 'DDC switch to DIS not carried out.*' | head -n 1)
	if [ "$res" = -5 ] && [ -n "$msg" ] && [ "$(gmux_sw ddc_failures)" = 1 ]; then
		pass apple_gmux_ng switch-ddc-refused-reported "lock_ddc returned -EIO: $msg"
	else
		fail apple_gmux_ng switch-ddc-refused-reported "lock result $res, failures $(gmux_sw ddc_failures), log '$msg'"
	fi
else
	if [ "$res" = -19 ] && [ $held = 0 ] && [ "$(gmux-simctl get switch_ddc)" = "$ddc0" ] &&
	   [ "$(gmux_sw ddc_switches)" = 0 ]; then
		pass apple_gmux_ng switch-no-ddc "$EXPECT_GMUX_KIND gmux: no switch_ddc, lock_ddc returns -ENODEV, SWITCH_DDC untouched"
	else
		fail apple_gmux_ng switch-no-ddc "lock result $res, DDC $ddc0 -> $(gmux-simctl get switch_ddc), held $held, ddc switches $(gmux_sw ddc_switches)"
	fi
fi
# The fake driver without runpm keeps runtime PM forbidden, as radeon on a
# Mac and nouveau without runpm=1 do: the switch says why the power stays.
why=$(cat "$(gmux_pnp)/dgpu_power/stay_on_reason" 2>&1)
if [ "$why" = "its driver does not let it runtime-suspend" ]; then
	pass apple_gmux_ng switch-stay-on-reason "dgpu_power/stay_on_reason: '$why'"
else
	fail apple_gmux_ng switch-stay-on-reason "dgpu_power/stay_on_reason: '$why'"
fi
gpu_cold_check switch-no-cold-access
gpu_modules_out
