# SPDX-License-Identifier: GPL-2.0
#
# apple_props shows the properties that the kernel's built-in parser
# attached at boot (found through the devices' software nodes) in sysfs,
# byte for byte as the fake Apple firmware served them, plus the aggregate
# listing, and removes it all on unload. Properties may also come from the
# firmware's NVRAM copy (AAPL,PathProperties*, /etc/macsupport/nvram-props.hex
# on profiles with APPLE_NVRAM_PROPS), which apple_props reads as well.
# Profiles booted through the fake Apple firmware only.

[ "${EXPECT_APPLE_EFI:-0}" = 1 ] || skip_test apple_props "no Apple EFI properties on $PROFILE"

BLOB_HEX=$(tr -d ' \n' < /etc/macsupport/apple-props.hex)
NVRAM_HEX=$(tr -d ' \n' < /etc/macsupport/nvram-props.hex 2>/dev/null)

# any_blob_has KEY HEX: the protocol's blob or the NVRAM copy holds KEY = HEX
any_blob_has()
{
	blob_has "$1" "$2" "$BLOB_HEX" && return 0
	[ -n "$NVRAM_HEX" ] || return 1
	blob_has "$1" "$2" "$NVRAM_HEX"
}

dmesg_mark sysfs-load
modprobe apple_props
drom=/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV/apple_properties/ThunderboltDROM
if [ -f "$drom" ]; then
	hex=$(od -An -tx1 -v "$drom" | tr -d ' \n')
	if [ -n "$hex" ] && blob_has ThunderboltDROM "$hex" "$BLOB_HEX"; then
		pass apple_props sysfs-drom "$EXPECT_APPLE_DROM_DEV ThunderboltDROM, $(( ${#hex} / 2 )) bytes as served"
	else
		fail apple_props sysfs-drom "content '$(echo "$hex" | cut -c 1-40)...' is not the blob's"
	fi
else
	fail apple_props sysfs-drom "no $drom"
fi

# Every file of every device matches a blob; booleans are empty files.
n=0 bad=
for f in /sys/bus/pci/devices/*/apple_properties/*; do
	[ -f "$f" ] || continue
	key=${f##*/}
	hex=$(od -An -tx1 -v "$f" | tr -d ' \n')
	any_blob_has "$key" "$hex" || bad="$bad $f"
	n=$((n + 1))
done
if [ "$n" -ge 4 ] && [ -z "$bad" ]; then
	pass apple_props sysfs-all-files-match "$n files"
else
	fail apple_props sysfs-all-files-match "$n files; mismatched:$bad"
fi

# The NVRAM copy (AAPL,PathProperties*) was taken at load.
if [ -n "${EXPECT_NVRAM_DEV:-}" ]; then
	nv=$(dmesg_since sysfs-load | grep -o 'apple_props: NVRAM AAPL,PathProperties: .*')
	f=/sys/bus/pci/devices/$EXPECT_NVRAM_DEV/apple_properties/macsupport,nvram
	if [ "${nv#*1 attached, 0 already present, 0 conflicts}" != "$nv" ] &&
	   [ "$(od -An -tx1 -v "$f" 2>/dev/null | tr -d ' \n')" = a1b2c3d4e5f6 ]; then
		pass apple_props load-nvram-copy "${nv#apple_props: }"
	else
		fail apple_props load-nvram-copy "log '$nv', $f: $(od -An -tx1 "$f" 2>&1 | head -n 1)"
	fi
fi

lines=$(wc -l < /sys/firmware/apple_properties/all)
if [ "$lines" = "$n" ] &&
   grep -q "^$EXPECT_APPLE_DROM_DEV ThunderboltDROM $(od -An -tx1 -v "$drom" | tr -d ' \n')\$" \
	/sys/firmware/apple_properties/all; then
	pass apple_props sysfs-aggregate "$lines lines"
else
	fail apple_props sysfs-aggregate "$lines lines for $n files"
fi

rmmod apple_props
if ls -d /sys/bus/pci/devices/*/apple_properties /sys/firmware/apple_properties 2>/dev/null | grep -q .; then
	fail apple_props sysfs-removed-on-unload "directories left"
else
	pass apple_props sysfs-removed-on-unload
fi
