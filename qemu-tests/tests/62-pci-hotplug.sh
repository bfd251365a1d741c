# SPDX-License-Identifier: GPL-2.0
#
# The host agent hot-adds a PCI device (pci-testdev, 1b36:0005) into the
# profile's hotplug slot through QEMU's QMP when this test asks for it, and
# removes it again; the kernel's pciehp must enumerate and remove it. The
# device must turn up where the profile says, under the EFI device path the
# profile gives. apple_props is loaded with a blob naming that device
# before it exists: the node must wait, and the PCI bus notifier must give
# the device its properties when it is added, before a driver could bind.
# (One add/remove cycle per boot: pciehp in QEMU 7.2 does not power a
# slot on again for a second device_add after a removal.)
# Profiles with a hotplug slot (EXPECT_HOTPLUG_BUS) only.

[ -n "${EXPECT_HOTPLUG_BUS:-}" ] || skip_test harness "no hotplug port on $PROFILE"

hp_dev=/sys/bus/pci/devices/$EXPECT_HOTPLUG_DEV

hp_present() { [ -e "$hp_dev" ]; }
hp_absent() { [ ! -e "$hp_dev" ]; }

# hp_efi_path: the EFI device path text of $hp_dev, from its sysfs path
# (/sys/devices/pci0000:00/0000:00:1d.0/0000:04:00.0 -> PciRoot(0x0)/...)
hp_efi_path()
{
	_path=$(readlink -f "$hp_dev") || return 1
	_dp=
	for _c in $(echo "${_path#/sys/devices/}" | tr '/' ' '); do
		case "$_c" in
		pci0000:*) _dp=$(printf 'PciRoot(0x%x)' "0x${_c#pci0000:}") ;;
		????:??:??.?)
			_d=${_c#*:*:}
			_dp="$_dp/Pci($(printf '0x%x,0x%x' "0x${_d%.*}" "${_d#*.}"))" ;;
		esac
	done
	echo "$_dp"
}

# The agent passes on only what it allows: QMP could run host commands.
ans=$(host_request '{"execute":"human-monitor-command","arguments":{"command-line":"info pci"}}')
rc=$?
case "$rc:$ans" in
1:*HostAgentRefused*) pass harness host-agent-refuses "$ans" ;;
*) fail harness host-agent-refuses "human-monitor-command: rc $rc, $ans" ;;
esac
# a repeat is bounded (30 times, 2 s apart at most)
ans=$(host_request_repeat 31 0 '{"execute":"query-pci"}')
rc=$?
case "$rc:$ans" in
1:*HostAgentRefused*"1 to 30 times"*) pass harness host-agent-bounds-repeat "$ans" ;;
*) fail harness host-agent-bounds-repeat "31 times: rc $rc, $ans" ;;
esac

# On the debug kernel (make check-debug) pciehp's own hot-add path makes
# lockdep report "possible circular locking dependency": in Debian's
# 6.1.192, pciehp_configure_device() drops ctrl->reset_lock around driver
# binding and takes it again while holding pci_rescan_remove_lock, the
# reverse of the order pciehp_ist() takes them in. The report is the
# kernel's, and lockdep switches itself off after it for the rest of the
# boot. 90-debug-props-race.sh adds and removes devices through sysfs
# instead, which the bus notifier sees the same way.
if debug_kernel; then
	for t in "harness hotplug-add" "apple_props late-device-gets-properties" \
		 "harness hotplug-remove" "apple_props unload-after-hot-remove"; do
		skip "${t% *}" "${t#* }" "on the debug kernel, pciehp's hot-add makes lockdep report (the kernel's own lock order, see the test)"
	done
	return 0
fi

if hp_present; then
	fail harness hotplug-add "$EXPECT_HOTPLUG_DEV exists before device_add"
	fail harness hotplug-remove "not tried"
	return 0
fi

modprobe apple_props
dmesg_mark late-load
cat /etc/macsupport/blobs/late-device.bin > /sys/firmware/apple_properties/load
late_line=$(dmesg_since late-load | grep -o 'apple_props: sysfs: .*')
case "$late_line" in
*"0 attached"*"1 waiting for their device"*) ;;
*) fail apple_props late-device-gets-properties "load: '$late_line'" ;;
esac

dmesg_mark hotplug-add
req='{"execute":"device_add","arguments":{"driver":"pci-testdev","id":"hp1","bus":"'$EXPECT_HOTPLUG_BUS'"}}'
if ! ans=$(host_request "$req"); then
	fail harness hotplug-add "device_add: $ans"
	fail harness hotplug-remove "not tried"
	return 0
fi
if ! t=$(wait_until 20 hp_present); then
	fail harness hotplug-add "QMP said $ans, but no $EXPECT_HOTPLUG_DEV after ${t}s: $(dmesg_since hotplug-add | grep -i -m 3 pciehp | tr '\n' ' ')"
	host_request '{"execute":"device_del","arguments":{"id":"hp1"}}' > /dev/null
	fail harness hotplug-remove "not tried"
	return 0
fi
id="$(cat "$hp_dev/vendor"):$(cat "$hp_dev/device")"
dp=$(hp_efi_path)
if [ "$id" != 0x1b36:0x0005 ]; then
	fail harness hotplug-add "$EXPECT_HOTPLUG_DEV is $id, not the pci-testdev 0x1b36:0x0005"
elif [ "$dp" != "$EXPECT_HOTPLUG_DP" ]; then
	fail harness hotplug-add "$EXPECT_HOTPLUG_DEV is at $dp, not $EXPECT_HOTPLUG_DP"
else
	pass harness hotplug-add "pci-testdev at $EXPECT_HOTPLUG_DEV ($dp) ${t}s after device_add"
fi
late=$(od -An -tx1 -v "$hp_dev/apple_properties/macsupport,late" 2>/dev/null | tr -d ' \n')
if [ "$late" = cafe0001 ]; then
	pass apple_props late-device-gets-properties \
		"$(dmesg_since hotplug-add | grep -o "$EXPECT_HOTPLUG_DEV: device added: .*")"
else
	fail apple_props late-device-gets-properties "macsupport,late = '$late' on $EXPECT_HOTPLUG_DEV"
fi

# While the device goes away, loads of its node, readers of what it shows
# and module reloads (the walk over the devices at load, the exit) race
# the removal (the bus notifier unexports and takes its node back):
# nothing may crash, point into a freed node or stay behind.
race_loop()
{
	_i=0
	while [ ! -e /tmp/race-stop ] && [ "$_i" -lt 3000 ]; do
		cat /etc/macsupport/blobs/late-device.bin > /sys/firmware/apple_properties/load
		cat /sys/firmware/apple_properties/all "$hp_dev"/apple_properties/* > /dev/null
		_i=$((_i + 1))
	done 2> /dev/null
	echo "$_i" > /tmp/race-loops
}
reload_loop()
{
	_r=0
	while [ ! -e /tmp/race-stop ] && [ "$_r" -lt 300 ]; do
		rmmod apple_props && modprobe apple_props
		sleep 0.1
		_r=$((_r + 1))
	done 2> /dev/null
	echo "$_r" > /tmp/race-reloads
}
rm -f /tmp/race-stop /tmp/race-loops /tmp/race-reloads
race_loop &
race_pid=$!
reload_loop &
reload_pid=$!

dmesg_mark hotplug-remove
if ! ans=$(host_request '{"execute":"device_del","arguments":{"id":"hp1"}}'); then
	touch /tmp/race-stop
	wait "$race_pid" "$reload_pid"
	fail harness hotplug-remove "device_del: $ans"
	return 0
fi
# pciehp treats device_del as an attention button press: 5 s to cancel, then off.
if t=$(wait_until 30 hp_absent); then
	pass harness hotplug-remove "$EXPECT_HOTPLUG_DEV gone ${t}s after device_del"
else
	fail harness hotplug-remove "$EXPECT_HOTPLUG_DEV still there ${t}s after device_del: $(dmesg_since hotplug-remove | grep -i -m 3 pciehp | tr '\n' ' ')"
fi
touch /tmp/race-stop
wait "$race_pid" "$reload_pid"
modprobe apple_props
stale=$(grep -c "^$EXPECT_HOTPLUG_DEV " /sys/firmware/apple_properties/all)
lines=$(wc -l < /sys/firmware/apple_properties/all)
files=$(ls /sys/bus/pci/devices/*/apple_properties/* 2>/dev/null | wc -l)
if hp_absent && [ "$stale" = 0 ] && [ "$lines" = "$files" ]; then
	pass apple_props hot-remove-races-loads "$(cat /tmp/race-loops) loads and reads, \
$(cat /tmp/race-reloads) reloads during the removal; all: $lines lines, none for $EXPECT_HOTPLUG_DEV"
else
	fail apple_props hot-remove-races-loads "$stale lines for $EXPECT_HOTPLUG_DEV in all, \
$lines lines for $files files"
fi
if rmmod apple_props && [ ! -e /sys/firmware/apple_properties ]; then
	pass apple_props unload-after-hot-remove
else
	fail apple_props unload-after-hot-remove
fi
