# SPDX-License-Identifier: GPL-2.0
#
# apple_props shows the properties that the kernel's built-in parser
# attached at boot (found through the devices' software nodes) in sysfs,
# byte for byte as the fake Apple firmware served them, plus the aggregate
# listing, and removes it all on unload. Profiles booted through the fake
# Apple firmware only.

[ "${EXPECT_APPLE_EFI:-0}" = 1 ] || return 0

BLOB_HEX=$(tr -d ' \n' < /etc/macsupport/apple-props.hex)

# blob_has KEY HEX: the blob holds KEY with exactly the value HEX
blob_has()
{
	bk=$(printf '%s\0' "$1" | od -An -tx1 | tr -d ' \n' | sed 's/\(..\)/\100/g')
	bn=$(( ${#2} / 2 + 4 ))
	bn=$(printf '%02x%02x%02x%02x' $((bn & 255)) $((bn >> 8 & 255)) $((bn >> 16 & 255)) \
		$((bn >> 24 & 255)))
	case "$BLOB_HEX" in
	*"$bk$bn$2"*) return 0 ;;
	esac
	return 1
}

modprobe apple_props
drom=/sys/bus/pci/devices/$EXPECT_APPLE_DROM_DEV/apple_properties/ThunderboltDROM
if [ -f "$drom" ]; then
	hex=$(od -An -tx1 -v "$drom" | tr -d ' \n')
	if [ -n "$hex" ] && blob_has ThunderboltDROM "$hex"; then
		pass apple_props sysfs-drom "$EXPECT_APPLE_DROM_DEV ThunderboltDROM, $(( ${#hex} / 2 )) bytes as served"
	else
		fail apple_props sysfs-drom "content '$(echo "$hex" | cut -c 1-40)...' is not the blob's"
	fi
else
	fail apple_props sysfs-drom "no $drom"
fi

# Every file of every device matches the blob; booleans are empty files.
n=0 bad=
for f in /sys/bus/pci/devices/*/apple_properties/*; do
	[ -f "$f" ] || continue
	key=${f##*/}
	hex=$(od -An -tx1 -v "$f" | tr -d ' \n')
	blob_has "$key" "$hex" || bad="$bad $f"
	n=$((n + 1))
done
if [ "$n" -ge 4 ] && [ -z "$bad" ]; then
	pass apple_props sysfs-all-files-match "$n files"
else
	fail apple_props sysfs-all-files-match "$n files; mismatched:$bad"
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
