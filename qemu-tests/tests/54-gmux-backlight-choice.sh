# SPDX-License-Identifier: GPL-2.0
#
# Which backlight the gmux registers follows the kernel's choice (issue 7,
# item 6). The test-only helper macsupport_test_backlight sets the
# acpi_backlight= option video.ko reads (video.ko is reloaded for each case)
# and, with native=1, plays a GPU driver with a native backlight (i915 on a
# T2 Mac: on 6.1 video_detect does not know the T2 gmux, so the kernel
# chooses native). The gmux backlight must register only when the kernel
# chose the gmux (or the vendor interface, which on 6.1 the gmux is), or
# the user forced it with backlight=1; then with type "platform", as
# mainline's. Without backlight=1 there is never more than one backlight,
# also when the GPU driver asks for its native backlight after the gmux
# registered on "vendor" (6.1): the gmux then withdraws its own.
# Then apple_bl (Debian 6.1's, loaded first as MODULE_SOFTDEP asks) is
# evicted while the gmux drives the panel and given back on unload and on a
# probe that fails after the eviction.

gmux_simulated || exit 0
gmux_wire_on
ABL="/sys/bus/acpi/drivers/Apple backlight"	# apple_bl's ACPI driver
unload_all()
{
	rmmod apple_gmux_ng 2>/dev/null
	rmmod macsupport_test_backlight 2>/dev/null
	rmmod video 2>/dev/null
}

# one_case LABEL ACPI_BACKLIGHT NATIVE GMUX_PARAM WANT(yes|no)
one_case()
{
	unload_all
	if ! modprobe macsupport_test_backlight ${2:+acpi_backlight=$2} native="$3"; then
		fail apple_gmux_ng "backlight-choice-$1" "cannot load the test helper"
		return
	fi
	choice=$(cat /sys/module/macsupport_test_backlight/parameters/choice)
	gmux_load $4
	list=$(ls /sys/class/backlight 2>/dev/null | tr '\n' ' ')
	n=$(ls /sys/class/backlight 2>/dev/null | wc -l)
	got=no
	[ -d "$BL" ] && got=yes
	type=$(cat "$BL/type" 2>/dev/null)
	note="acpi_backlight=${2:-(unset)} native=$3 ${4:+$4 }-> kernel chose $choice; backlights: ${list:-none}"
	if [ "$got" != "$5" ]; then
		fail apple_gmux_ng "backlight-choice-$1" "gmux backlight $got, want $5; $note"
	elif [ "$got" = yes ] && [ "$type" != platform ]; then
		fail apple_gmux_ng "backlight-choice-$1" "type $type, want platform; $note"
	elif [ -z "$4" ] && [ "$n" -gt 1 ]; then
		fail apple_gmux_ng "backlight-choice-$1" "$n backlights for one panel; $note"
	else
		pass apple_gmux_ng "backlight-choice-$1" "$note${type:+ (gmux: $type)}"
	fi
}

one_case auto "" 0 "" yes
one_case auto-native-gpu "" 1 "" no
one_case video video 0 "" no
one_case vendor vendor 0 "" yes
one_case native native 1 "" no
one_case apple-gmux apple_gmux 1 "" yes
one_case none none 0 "" no
one_case forced native 1 backlight=1 yes

# late_native LABEL GMUX_PARAM WANT_GMUX(yes|no): the gmux probes first, on
# the "vendor" choice (no GPU driver has asked yet), then the GPU driver
# asks for a native backlight and registers it (i915 loading after the gmux
# on a T2 Mac). Without backlight=1 the gmux must withdraw its backlight and
# say so: one panel, one backlight. apple_bl (Debian 6.1's registers
# whatever the choice) must stay away while the choice is native, or a real
# Mac, whose APP0002 it binds, has two backlights again; it comes back on
# unload.
late_native()
{
	unload_all
	modprobe apple_bl 2>/dev/null
	gmux_load $2
	before=$(ls /sys/class/backlight 2>/dev/null | tr '\n' ' ')
	abl_evicted=no
	[ -d /sys/module/apple_bl ] && [ ! -d "$ABL" ] && abl_evicted=yes
	dmesg_mark "late-$1"
	if ! modprobe macsupport_test_backlight native=1; then
		fail apple_gmux_ng "backlight-choice-$1" "cannot load the test helper"
		return
	fi
	choice=$(cat /sys/module/macsupport_test_backlight/parameters/choice)
	# the gmux withdraws from a work item: give it a moment
	i=0
	while [ -d "$BL" ] && [ "$3" = no ] && [ $i -lt 20 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	list=$(ls /sys/class/backlight 2>/dev/null | tr '\n' ' ')
	n=$(ls /sys/class/backlight 2>/dev/null | wc -l)
	got=no
	[ -d "$BL" ] && got=yes
	logged=$(dmesg_since "late-$1" | grep -o 'the kernel now chose [a-z_]*.*withdrawn' | head -n 1)
	abl="; apple_bl evicted $abl_evicted, registered now: no"
	[ -d "$ABL" ] && abl="; apple_bl evicted $abl_evicted, registered now: yes"
	note="${2:+$2 }gmux first (backlights: ${before:-none}), then a GPU driver asked -> kernel chose $choice; backlights: ${list:-none}"
	case "$before" in
	*gmux_backlight*) ;;
	*)
		fail apple_gmux_ng "backlight-choice-$1" "premise: no gmux backlight before the GPU driver; $note"
		return ;;
	esac
	if [ "$got" != "$3" ]; then
		fail apple_gmux_ng "backlight-choice-$1" "gmux backlight $got, want $3; $note"
	elif [ ! -d /sys/class/backlight/test_native_backlight ]; then
		fail apple_gmux_ng "backlight-choice-$1" "no native backlight; $note"
	elif [ "$3" = no ] && [ "$n" -ne 1 ]; then
		fail apple_gmux_ng "backlight-choice-$1" "$n backlights for one panel; $note"
	elif [ "$3" = no ] && [ -z "$logged" ]; then
		fail apple_gmux_ng "backlight-choice-$1" "withdrawal not logged; $note"
	elif [ "$abl_evicted" = yes ] && [ -d "$ABL" ]; then
		fail apple_gmux_ng "backlight-choice-$1" "apple_bl back although the kernel chose $choice; $note$abl"
	elif [ "$3" = yes ] && [ -n "$logged" ]; then
		fail apple_gmux_ng "backlight-choice-$1" "forced backlight withdrawn: '$logged'; $note"
	elif ! rmmod apple_gmux_ng; then
		fail apple_gmux_ng "backlight-choice-$1" "cannot unload afterwards; $note"
	elif [ "$abl_evicted" = yes ] && [ ! -d "$ABL" ]; then
		fail apple_gmux_ng "backlight-choice-$1" "apple_bl not given back on unload; $note$abl"
	else
		[ "$abl_evicted" = yes ] && abl="$abl, back after unload"
		pass apple_gmux_ng "backlight-choice-$1" "$note$abl${logged:+; logged: $logged}"
	fi
}

late_native late-native "" no
late_native late-native-forced backlight=1 yes
unload_all

# apple_bl: declared as a soft dependency, evicted, given back.
if modinfo -F softdep apple_gmux_ng 2>/dev/null | grep -q 'pre:.*apple_bl'; then
	pass apple_gmux_ng softdep-apple-bl "$(modinfo -F softdep apple_gmux_ng)"
else
	fail apple_gmux_ng softdep-apple-bl "softdep '$(modinfo -F softdep apple_gmux_ng 2>/dev/null)'"
fi
rmmod apple_bl 2>/dev/null
if ! modprobe apple_bl || [ ! -d "$ABL" ]; then
	fail apple_gmux_ng apple-bl-given-back "cannot load apple_bl"
	exit 0
fi
dmesg_mark evict
gmux_load
evicted=yes
[ -d "$ABL" ] && evicted=no
rmmod apple_gmux_ng
back=no
[ -d "$ABL" ] && back=yes
if [ "$evicted" = yes ] && [ "$back" = yes ]; then
	pass apple_gmux_ng apple-bl-given-back "apple_bl's driver gone while the gmux had the panel, back after unload"
else
	fail apple_gmux_ng apple-bl-given-back "evicted $evicted, back after unload $back"
fi

# The probe fails after the eviction: the gmux answers the version and the
# two brightness reads, then sticks before the interrupt is unmasked. (The
# classic gmux has no handshake to stick.)
if [ "$EXPECT_GMUX_KIND" = classic ]; then
	rmmod apple_bl
	exit 0
fi
dmesg_mark evict-fail
gmux-simctl stuck-after 3 > /dev/null
gmux_load
bound=$(basename "$(readlink "$(gmux_pnp)/driver" 2>/dev/null)")
gmux-simctl fault none > /dev/null
rmmod apple_gmux_ng 2>/dev/null
if [ -n "$bound" ] || ! dmesg_since evict-fail | grep -q "apple_bl unregistered"; then
	fail apple_gmux_ng apple-bl-back-after-failed-probe "premise: bound '$bound', eviction logged: $(dmesg_since evict-fail | grep -c 'apple_bl unregistered')"
elif [ -d "$ABL" ]; then
	pass apple_gmux_ng apple-bl-back-after-failed-probe "$(dmesg_since evict-fail | grep -o 'cannot unmask.*' | head -n 1 | cut -c 1-60); apple_bl back"
else
	fail apple_gmux_ng apple-bl-back-after-failed-probe "probe failed after evicting apple_bl, which stayed away"
fi
rmmod apple_bl
