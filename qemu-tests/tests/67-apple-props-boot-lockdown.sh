# SPDX-License-Identifier: GPL-2.0
# harness: own-boot when EXPECT_APPLE_EFI,EXPECT_NVRAM_DEV,MACSUPPORT_SIGNED_MODULES append lockdown=integrity
#
# Booted locked down (lockdown=integrity), apple_props takes nothing from
# the sources root can plant: neither the NVRAM copy (AAPL,PathProperties*)
# nor the firmware file it is told to read (firmware_file=), and says so
# in one line; it still shows what the firmware handed the kernel at boot,
# and the load file refuses blobs (EPERM). Needs modules signed with a key the guest
# kernel trusts, which only a kernel built here has (make check-debug:
# the harness signs with the build's own key); Debian's kernel refuses
# unsigned modules when locked down, so on it this boot does not happen
# and 69-apple-props-lockdown.sh locks down at run time instead.
# Profiles booted through the fake Apple firmware with an NVRAM copy.

LOAD=/sys/firmware/apple_properties/load
NEW=/sys/bus/pci/devices/0000:00:10.0
FW_DEV=0000:00:1d.0	# what qemu-tests/blobs/fw-file.json names

mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
mode=$(cat /sys/kernel/security/lockdown 2>/dev/null)
mkdir -p /lib/firmware/apple
cp /etc/macsupport/blobs/fw-file.bin /lib/firmware/apple/properties.bin

dmesg_mark boot-lockdown
if modprobe apple_props firmware_file=apple/properties.bin 2> /tmp/err; then rc=0; else rc=1; fi
log=$(dmesg_since boot-lockdown)
skip=$(echo "$log" | grep -o 'apple_props: kernel locked down: NVRAM copy and firmware file apple/properties.bin not taken')
taken=$(echo "$log" | grep -o 'apple_props: \(NVRAM\|firmware\) .*')
drom=/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV/apple_properties/ThunderboltDROM
if [ "${mode#*\[integrity\]}" = "$mode" ]; then
	fail apple_props boot-lockdown-sources-skipped "not locked down: '$mode'"
elif [ "$rc" != 0 ]; then
	fail apple_props boot-lockdown-sources-skipped "modprobe: $(cat /tmp/err)"
elif [ -n "$skip" ] && [ -z "$taken" ] &&
     [ ! -e "/sys/bus/pci/devices/$EXPECT_NVRAM_DEV/software_node" ] &&
     [ ! -e "/sys/bus/pci/devices/$FW_DEV/software_node" ] && [ -f "$drom" ]; then
	pass apple_props boot-lockdown-sources-skipped "${skip#apple_props: }; built-in \
properties still shown"
else
	fail apple_props boot-lockdown-sources-skipped "log '$skip', taken '$taken', \
$(ls -d "/sys/bus/pci/devices/$EXPECT_NVRAM_DEV/software_node" \
	"/sys/bus/pci/devices/$FW_DEV/software_node" "$drom" 2>&1 | tr '\n' ' ')"
fi

if cat /etc/macsupport/blobs/new-device.bin > "$LOAD" 2> /tmp/err; then rc=0; else rc=1; fi
if [ "$rc" = 1 ] && grep -q 'Operation not permitted' /tmp/err && [ ! -e "$NEW/software_node" ]; then
	pass apple_props boot-lockdown-refuses-load "$(sed 's/.*: //' /tmp/err)"
else
	fail apple_props boot-lockdown-refuses-load "rc $rc '$(cat /tmp/err)'"
fi
rmmod apple_props
rm -f /lib/firmware/apple/properties.bin
