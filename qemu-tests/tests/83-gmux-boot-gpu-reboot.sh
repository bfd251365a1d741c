# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when SIMULATOR,TEST_REBOOT twice
#
# The boot-GPU preference survives a reboot in the firmware's variable
# store, and cannot be changed once the kernel is locked down. The harness
# boots this profile twice (macsupport.boot=1, then =2 with the OVMF
# variable store boot 1 left): boot 1 finds no variable, writes
# "integrated" through apple_gmux_ng's boot_gpu; boot 2 reads it back
# through the attribute and, without the module, through efivarfs and
# gpu-select. Then boot 2 sets "discrete", locks the kernel down
# (integrity, at run time: the test modules are unsigned, see
# 69-apple-props-lockdown.sh) and checks that the attribute (EPERM, with
# the kernel's lockdown message) and gpu-select (through the attribute and
# through efivarfs) refuse, that reading still works and NVRAM is unchanged.

boot=$(sed -n 's/.*macsupport\.boot=\([0-9]*\).*/\1/p' /proc/cmdline)
case "$boot" in
1)
	gmux_load
	A=$(boot_gpu_attr)
	before=$(cat "$A" 2>&1)
	if echo integrated > "$A" 2> /tmp/err; then rc=0; else rc=1; fi
	b=$(prefs_bytes)
	if [ "$before" = unset ] && [ "$rc" = 0 ] && [ "$b" = 0700000001000000 ]; then
		pass apple_gmux_ng boot-gpu-reboot-write "boot 1: was unset, wrote integrated, NVRAM $b"
	else
		fail apple_gmux_ng boot-gpu-reboot-write "boot 1: was '$before', rc $rc '$(cat /tmp/err)', NVRAM '$b'"
	fi
	rmmod apple_gmux_ng
	;;
2)
	efivarfs_fresh
	tool=$(gpu-select --json | sed -n 's/^  "next_boot_gpu": "\(.*\)",/\1/p')
	b=$(prefs_bytes)
	gmux_load
	A=$(boot_gpu_attr)
	v=$(cat "$A" 2>&1)
	if [ "$v" = integrated ] && [ "$tool" = integrated ] && [ "$b" = 0700000001000000 ]; then
		pass apple_gmux_ng boot-gpu-survives-reboot "boot 2: attribute $v, gpu-select (efivarfs) $tool, NVRAM $b"
	else
		fail apple_gmux_ng boot-gpu-survives-reboot "boot 2: attribute '$v', gpu-select '$tool', NVRAM '$b' (boot 1 wrote integrated)"
	fi

	echo discrete > "$A"
	efivarfs_fresh
	mount -t securityfs securityfs /sys/kernel/security 2> /dev/null
	echo integrity > /sys/kernel/security/lockdown
	mode=$(cat /sys/kernel/security/lockdown)
	dmesg_mark boot-gpu-lockdown
	if echo integrated > "$A" 2> /tmp/err; then rc=0; else rc=1; fi
	why=$(dmesg_since boot-gpu-lockdown | grep -o 'Lockdown: .*is restricted' | head -n 1)
	if gpu-select integrated > /dev/null 2> /tmp/err2; then rc2=0; else rc2=$?; fi
	if gpu-select --efivarfs integrated > /dev/null 2> /tmp/err3; then rc3=0; else rc3=$?; fi
	v=$(cat "$A" 2>&1)
	b=$(od -An -tx1 -v "$EFIVARS/$PREFS_VAR" 2>&1 | tr -d ' \n')
	if [ "${mode#*\[integrity\]}" != "$mode" ] && [ "$rc" = 1 ] &&
	   grep -q 'Operation not permitted' /tmp/err && [ -n "$why" ] &&
	   [ "$rc2" = 3 ] && [ "$rc3" = 3 ] && grep -q 'locked down (integrity)' /tmp/err2 &&
	   grep -q 'locked down (integrity)' /tmp/err3 &&
	   [ "$v" = discrete ] && [ "$b" = 0700000000000000 ]; then
		pass apple_gmux_ng boot-gpu-lockdown-refuses-write "$mode: attribute: $(sed 's/.*: //' /tmp/err) ($why); tool: $(cat /tmp/err2)"
	else
		fail apple_gmux_ng boot-gpu-lockdown-refuses-write "$mode: attribute rc $rc '$(cat /tmp/err)' log '$why'; gpu-select rc $rc2 '$(cat /tmp/err2)', --efivarfs rc $rc3 '$(cat /tmp/err3)'; reads '$v', NVRAM '$b'"
	fi
	rmmod apple_gmux_ng
	;;
*)
	fail apple_gmux_ng boot-gpu-survives-reboot "not booted twice by the harness (no macsupport.boot= on the command line)"
	;;
esac
