# SPDX-License-Identifier: GPL-2.0
#
# switch_ddc (issue 8, item 1): on a classic gmux the inactive GPU's driver
# borrows the panel's DDC lines to read its EDID
# (vga_switcheroo_lock_ddc(), as drm_get_edid_switcheroo() does): the
# handler must move SWITCH_DDC alone, verified, and return the previous
# owner, and the unlock must put it back. Indexed and T2 gmux have no
# separate DDC mux: their handler offers no switch_ddc, and lock_ddc fails
# with -ENODEV, touching nothing.

[ -n "${EXPECT_DGPU_DEV:-}" ] || exit 0
gmux_simulated || exit 0
D=$EXPECT_DGPU_DEV

modprobe macsupport_test_gpe_wire gpe="$EXPECT_GMUX_GPE"
gmux_load
modprobe macsupport_test_gpu
wait_until 10 sh -c "[ -e $VGASR ]" > /dev/null
echo IGD > "$VGASR"
sim_is switch_display 2
ddc0=$(gmux-simctl get switch_ddc)
n0=$(gmux_sw ddc_switches)
# The dGPU's driver holds the DDC lines for 3 s.
echo 3000 > "$TEST_GPU/$D/ddc" &
held=0
i=0
while [ $i -lt 25 ]; do
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
gpu_modules_out
