# SPDX-License-Identifier: GPL-2.0
#
# When the in-tree apple-gmux holds the gmux, apple_gmux_ng refuses with a
# message that names the fix. The in-tree driver cannot bind in QEMU (no
# port I/O gmux answers), so a test-only stand-in binds the device under
# its driver name, "apple-gmux".

gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
gmux_wire_on
modprobe macsupport_test_gmux_standin
dmesg_mark coexist
if gmux_load 2>/dev/null; then
	fail apple_gmux_ng refuses-when-in-tree-bound "loaded although apple-gmux holds the gmux"
	rmmod apple_gmux_ng
elif dmesg_since coexist | grep -q "the in-tree apple-gmux driver has the gmux: unload it (modprobe -r apple-gmux)"; then
	pass apple_gmux_ng refuses-when-in-tree-bound "$(dmesg_since coexist | grep -o 'the in-tree apple-gmux.*' | cut -c 1-90)"
else
	fail apple_gmux_ng refuses-when-in-tree-bound "refused without the message"
fi
rmmod macsupport_test_gmux_standin
gmux_load
if [ "$(basename "$(readlink "$(gmux_pnp)/driver" 2>/dev/null)")" = apple_gmux_ng ]; then
	pass apple_gmux_ng binds-after-in-tree-unloaded
else
	fail apple_gmux_ng binds-after-in-tree-unloaded
fi
rmmod apple_gmux_ng
