# SPDX-License-Identifier: GPL-2.0
#
# The dGPU's HDMI/DP audio (function 1) is a runtime-PM consumer of the
# dGPU (function 0) through a device link. The kernel's
# quirk_gpu_hda links AMD and NVIDIA audio functions itself; for the
# harness's intel-hda stand-in (8086:2668) it does not, so apple_gmux_ng
# must add the link when it sets up switching, with DL_FLAG_PM_RUNTIME,
# and take it away again on unload. On MacBookPro8,1 (no gmux) there is none.
# Real: the driver core's device links and their sysfs view. Not emulated:
# an audio driver and the GPU's runtime PM (item 3).

[ -n "${EXPECT_DGPU_AUDIO_DEV:-}" ] || skip_test apple_gmux_ng "no dGPU audio function on $PROFILE"
gmux_wire_on
D=$EXPECT_DGPU_DEV
A=$EXPECT_DGPU_AUDIO_DEV
L=/sys/class/devlink/pci:$D--pci:$A

if [ -e "$L" ]; then
	fail apple_gmux_ng audio-link-premise "a link $D -> $A exists before apple_gmux_ng: the kernel's quirk made one, the test proves nothing"
	exit 0
fi
gmux_load
if gmux_simulated; then
	pm=$(cat "$L/runtime_pm" 2>/dev/null)
	if [ "$pm" = 1 ] && [ -e "/sys/bus/pci/devices/$A/supplier:pci:$D" ] &&
	   [ "$(gmux_sw audio_link)" = "$A -> $D" ]; then
		pass apple_gmux_ng audio-link-created "$A (consumer) -> $D (supplier), runtime_pm $pm, status $(cat "$L/status")"
	else
		fail apple_gmux_ng audio-link-created "link $(ls -d "$L" 2>&1), runtime_pm '$pm', switch file audio_link '$(gmux_sw audio_link)'"
	fi
	rmmod apple_gmux_ng
	if [ ! -e "$L" ] && [ ! -e "/sys/bus/pci/devices/$A/supplier:pci:$D" ]; then
		pass apple_gmux_ng audio-link-removed "unload removes the link it made"
	else
		fail apple_gmux_ng audio-link-removed "after unload: $(ls -d "$L" 2>&1)"
	fi
	# again: a reload makes it again
	gmux_load
	if [ -e "$L" ]; then
		pass apple_gmux_ng audio-link-reload "made again on reload"
	else
		fail apple_gmux_ng audio-link-reload "no link after reload"
	fi
else
	if [ ! -e "$L" ]; then
		pass apple_gmux_ng audio-link-none-without-gmux "$EXPECT_GMUX_KIND: no gmux bound, no link made"
	else
		fail apple_gmux_ng audio-link-none-without-gmux "$EXPECT_GMUX_KIND: a link exists: $(cat "$L/status")"
	fi
fi
rmmod apple_gmux_ng 2> /dev/null
exit 0
