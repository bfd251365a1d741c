# SPDX-License-Identifier: GPL-2.0
#
# mac_quirks decides a quirk tied to a PCI device again when such a device
# goes away or appears (its PCI bus notifier): the device is removed and
# found again through sysfs (remove, rescan), as a hot-unplug and a hot-add
# would. Profiles with a PCI-tied quirk that applies (EXPECT_QUIRKS names
# bcm4331_reset or apple_nvme), on the stand-in its QUIRKS_TEST_ARGS name.

[ "$EXPECT_APPLE" = 1 ] || skip_test mac_quirks "$PROFILE is not an Apple machine"

for q in bcm4331_reset apple_nvme; do
	want=$(quirk_expected "$q")
	[ "$want" != not-applicable ] || continue

	# the stand-in's IDs: the alias whose target is the quirk's part
	case "$q" in
	bcm4331_reset) part=14e4:4331 ;;
	apple_nvme) part=$(echo "${QUIRKS_TEST_ARGS:-}" | grep -o '=106b:200[135]' | head -n 1 | cut -c 2-) ;;
	esac
	ids=$(echo "${QUIRKS_TEST_ARGS:-}" | grep -o "[0-9a-f]*:[0-9a-f]*=$part" | head -n 1 | cut -d= -f1)
	dev=
	for d in /sys/bus/pci/devices/*; do
		[ "$(cut -c 3- "$d/vendor"):$(cut -c 3- "$d/device")" = "$ids" ] && { dev=${d##*/}; break; }
	done
	if [ -z "$dev" ]; then
		fail mac_quirks "$q-follows-device" "$PROFILE: no device $ids (stand-in for $part)"
		continue
	fi

	quirks_load
	before=$(quirk_state "$q")
	echo 1 > "/sys/bus/pci/devices/$dev/remove"
	gone=$(quirk_state "$q")
	echo 1 > /sys/bus/pci/rescan
	wait_until 10 test -e "/sys/bus/pci/devices/$dev"
	back=$(quirk_state "$q")
	rmmod mac_quirks

	if [ "$before:$gone:$back" = "$want:not-applicable:$want" ]; then
		pass mac_quirks "$q-follows-device" "$PROFILE: $dev ($ids for $part): $before, removed: $gone, rescanned: $back"
	else
		fail mac_quirks "$q-follows-device" "$PROFILE: $dev: $before -> removed $gone -> rescanned $back (want $want -> not-applicable -> $want)"
	fi
done
