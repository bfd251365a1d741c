# SPDX-License-Identifier: GPL-2.0
#
# A failed module init leaves nothing behind. apple_props attaches the
# NVRAM copy's and the firmware file's nodes while it initialises; when a
# later step fails, it must take them back (software nodes, sysfs files,
# device references, the list of loaded nodes), and a normal load
# afterwards must attach them again. The TEST ONLY parameter test_fail_at
# makes the init fail after a named step: "sources", right after the
# NVRAM and firmware-file sources were taken, and each earlier one.
# Profiles booted through the fake Apple firmware with an NVRAM copy only.

[ "${EXPECT_APPLE_EFI:-0}" = 1 ] && [ -n "${EXPECT_NVRAM_DEV:-}" ] || skip_test apple_props "no Apple EFI properties or NVRAM stand-in on $PROFILE"
FW_DEV=0000:00:1d.0	# what qemu-tests/blobs/fw-file.json names

FW_PARAM=firmware_file=apple/properties.bin	# the firmware-file source is taken only when named
mkdir -p /lib/firmware/apple
cp /etc/macsupport/blobs/fw-file.bin /lib/firmware/apple/properties.bin

# left_behind: what an unloaded apple_props must not leave
left_behind()
{
	ls -d /sys/module/apple_props /sys/firmware/apple_properties \
		/sys/bus/pci/devices/*/apple_properties \
		"/sys/bus/pci/devices/$EXPECT_NVRAM_DEV/software_node" \
		"/sys/bus/pci/devices/$FW_DEV/software_node" 2>/dev/null | tr '\n' ' '
}

dmesg_mark init-fail
if modprobe apple_props $FW_PARAM test_fail_at=sources 2> /tmp/err; then rc=0; else rc=1; fi
# Busybox's modprobe tries a failing module twice: each try must find the
# nodes gone and attach them afresh.
log=$(dmesg_since init-fail)
tries=$(echo "$log" | grep -c 'TEST ONLY: failing init after step "sources"')
nv=$(echo "$log" | grep -c 'NVRAM AAPL,PathProperties: .* 1 attached')
fw=$(echo "$log" | grep -c 'firmware apple/properties.bin: .* 1 attached')
left=$(left_behind)
if [ "$rc" = 1 ] && [ "$tries" -ge 1 ] && [ "$nv" = "$tries" ] && [ "$fw" = "$tries" ] &&
   [ -z "$left" ]; then
	pass apple_props init-error-takes-back "$(sed 's/.*: //' /tmp/err), $tries tries; NVRAM \
and firmware-file nodes attached, then taken back"
else
	fail apple_props init-error-takes-back "modprobe rc $rc '$(cat /tmp/err)', $tries tries, \
attached: NVRAM $nv, firmware file $fw; left: $left"
fi

# Every other step of the init fails as cleanly.
bad=
for step in dir all notifier export; do
	if modprobe apple_props $FW_PARAM test_fail_at=$step 2> /dev/null; then
		bad="$bad $step:loaded"
		rmmod apple_props
	fi
	left=$(left_behind)
	[ -z "$left" ] || bad="$bad $step:$left"
done
if [ -z "$bad" ]; then
	pass apple_props init-error-every-step "dir, all, notifier, export: failed, nothing left"
else
	fail apple_props init-error-every-step "$bad"
fi

dmesg_mark init-after-fail
modprobe apple_props $FW_PARAM
nvf=/sys/bus/pci/devices/$EXPECT_NVRAM_DEV/apple_properties/macsupport,nvram
fwf=/sys/bus/pci/devices/$FW_DEV/apple_properties/macsupport,fw
if [ "$(od -An -tx1 -v "$nvf" 2>/dev/null | tr -d ' \n')" = a1b2c3d4e5f6 ] &&
   [ "$(od -An -tx1 -v "$fwf" 2>/dev/null | tr -d ' \n')" = f1f2 ]; then
	pass apple_props init-after-failed-init "NVRAM and firmware-file nodes attached again"
else
	fail apple_props init-after-failed-init "$(dmesg_since init-after-fail | grep -o \
'apple_props: .*attached.*' | tr '\n' ' ')"
fi
rmmod apple_props
left=$(left_behind)
if [ -z "$left" ]; then
	pass apple_props unload-after-failed-init
else
	fail apple_props unload-after-failed-init "left: $left"
fi
rm -f /lib/firmware/apple/properties.bin
