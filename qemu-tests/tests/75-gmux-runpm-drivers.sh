# SPDX-License-Identifier: GPL-2.0
#
# The automatic dGPU power-off against what the real GPU drivers do on a
# Mac (issue 22; ../shared/reference/gpu-drivers.md), one driver at a time
# through the fake GPU driver's modes:
#
# - amdgpu (MacBookPro13,3 to 16,x): Debian's amdgpu runtime-suspends a
#   chip that claims BACO by default, and its runtime resume sends a BACO
#   exit to the chip first, which a chip whose power the gmux cut does not
#   answer ("No response from SMU": the dGPU is dead until reboot). The
#   gmux must leave such a dGPU powered and say why.
#
# Real: runtime PM, device links, apple_gmux_ng, the gmux protocol over the
# simulator window. Emulated: the GPU (QEMU's secondary-vga, cold while
# unpowered) and its driver (macsupport_test_gpu mode=amdgpu: the driver's
# name, BACO runtime PM, a resume that fails if the power was cut while
# suspended; not its missing probe deferral or its "connected is busy"
# idle check), the gmux's GPE (macsupport_test_gpe_wire).

[ -n "${EXPECT_DGPU_DEV:-}" ] || exit 0
gmux_simulated || exit 0
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
		pass apple_gmux_ng runpm-amdgpu-baco-kept-powered "dGPU in BACO 2 s, never cut (blocker '$blocker'), resumed: BACO exit answered"
	else
		fail apple_gmux_ng runpm-amdgpu-baco-kept-powered "cuts $offs0 -> $offs1, resumed '$resumed'; $(state)"
	fi
else
	fail apple_gmux_ng runpm-amdgpu-baco-kept-powered "the dGPU never runtime-suspended: $(state)"
fi
gpu_cold_check runpm-amdgpu-no-cold-access
gpu_modules_out
exit 0
