# SPDX-License-Identifier: GPL-2.0
#
# Root without CAP_SYS_ADMIN (uid 0 and every other capability, so it can
# open the 0644 attribute and efivarfs' files) cannot change the boot GPU:
# the boot_gpu attribute refuses with EPERM, gpu-select refuses (exit 3)
# through the attribute and through efivarfs, and NVRAM is unchanged. The
# same writes with the capability work, so the refusal was about it.

gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
gmux_wire_on
gmux_load
A=$(boot_gpu_attr)
echo integrated > "$A"
caps=$(drop-cap $CAP_SYS_ADMIN grep CapEff /proc/self/status | tr -d '\t')

dmesg_mark boot-gpu-nocap
if drop-cap $CAP_SYS_ADMIN sh -c "echo discrete > $A" 2> /tmp/err; then rc=0; else rc=1; fi
if drop-cap $CAP_SYS_ADMIN gpu-select discrete > /dev/null 2> /tmp/err2; then rc2=0; else rc2=$?; fi
v=$(cat "$A")
b=$(prefs_bytes)
if [ "$rc" = 1 ] && grep -q 'Operation not permitted' /tmp/err && [ "$rc2" = 3 ] &&
   grep -q 'needs CAP_SYS_ADMIN' /tmp/err2 && [ "$v" = integrated ] && [ "$b" = 0700000001000000 ]; then
	pass apple_gmux_ng boot-gpu-needs-cap-sys-admin "$caps: attribute: $(sed 's/.*: //' /tmp/err); tool: $(cat /tmp/err2)"
else
	fail apple_gmux_ng boot-gpu-needs-cap-sys-admin "$caps: attribute rc $rc '$(cat /tmp/err)', gpu-select rc $rc2 '$(cat /tmp/err2)', reads '$v', NVRAM '$b'"
fi

rmmod apple_gmux_ng
efivarfs_fresh
if drop-cap $CAP_SYS_ADMIN gpu-select discrete > /dev/null 2> /tmp/err; then rc=0; else rc=$?; fi
b=$(prefs_bytes)
if [ "$rc" = 3 ] && grep -q 'needs CAP_SYS_ADMIN' /tmp/err && [ "$b" = 0700000001000000 ]; then
	pass apple_gmux_ng gpu-select-efivarfs-needs-cap-sys-admin "$(cat /tmp/err)"
else
	fail apple_gmux_ng gpu-select-efivarfs-needs-cap-sys-admin "rc $rc '$(cat /tmp/err)', NVRAM '$b'"
fi

# With the capability: both work.
gmux_load
if echo discrete > "$A" && [ "$(cat "$A")" = discrete ] && gpu-select unset > /dev/null &&
   [ "$(prefs_bytes)" = none ]; then
	pass apple_gmux_ng boot-gpu-with-cap-sys-admin "attribute and gpu-select write"
else
	fail apple_gmux_ng boot-gpu-with-cap-sys-admin "attribute reads '$(cat "$A")', NVRAM '$(prefs_bytes)'"
fi
rmmod apple_gmux_ng
