# SPDX-License-Identifier: GPL-2.0
#
# Which backlight the gmux registers follows the kernel's choice. The test-only helper macsupport_test_backlight sets the
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
#
# From 6.12 on (src/compat.h) the kernel's choice and apple_bl differ:
# - the guest boots with acpi_backlight=apple_gmux (TEST ONLY, harness.sh:
#   the choice a real Mac's detected gmux makes), so without an override the
#   kernel chose the gmux, and a GPU driver that asks for its native
#   backlight is told no: the gmux backlight stays, alone, also when the
#   GPU driver asks after the gmux registered (nothing to withdraw);
# - "vendor" belongs to apple_bl: the gmux registers no backlight there;
# - apple_bl checks the choice itself (it loads only on "vendor") and
#   exports nothing to evict it with: it must refuse to load while the kernel
#   chose the gmux, and on "vendor" keep its driver while the gmux is bound,
#   after unload and after a gmux probe that fails.

gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
gmux_wire_on
ABL="/sys/bus/acpi/drivers/Apple backlight"	# apple_bl's ACPI driver
# abl_gone: apple_bl's ACPI driver has left sysfs. driver_unregister()
# removes its directory only when the driver's kobject is released, which
# the debug kernel's CONFIG_DEBUG_KOBJECT_RELEASE delays by up to 4 s.
abl_gone() { wait_until 5 sh -c '[ ! -d "$1" ]' _ "$ABL" > /dev/null; }
# 6.12's apple_bl imports from video.ko: removed before it, or video.ko
# (and with it the choice it parsed) stays.
unload_all()
{
	rmmod apple_gmux_ng 2>/dev/null
	rmmod macsupport_test_backlight 2>/dev/null
	rmmod apple_bl 2>/dev/null
	rmmod video 2>/dev/null
}

# The kernel's backlight choice after 6.1 (see above): 1 from 6.12 on.
kernel=$(uname -r)
major=${kernel%%.*} minor=${kernel#*.}
minor=${minor%%[!0-9]*}
NEW_CHOICE=0
if [ "$major" -gt 6 ] || { [ "$major" = 6 ] && [ "$minor" -ge 12 ]; }; then
	NEW_CHOICE=1
fi
# acpi_backlight= given at boot, which the helper leaves alone without an override
BOOT_BL=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^acpi_backlight=//p' | tail -n 1)

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
	bound=$(basename "$(readlink "$(gmux_pnp)/driver" 2>/dev/null)")
	list=$(ls /sys/class/backlight 2>/dev/null | tr '\n' ' ')
	n=$(ls /sys/class/backlight 2>/dev/null | wc -l)
	got=no
	[ -d "$BL" ] && got=yes
	type=$(cat "$BL/type" 2>/dev/null)
	bl=${2:-${BOOT_BL:+$BOOT_BL (boot)}}
	note="acpi_backlight=${bl:-(unset)} native=$3 ${4:+$4 }-> kernel chose $choice; backlights: ${list:-none}"
	if [ -z "$bound" ]; then
		fail apple_gmux_ng "backlight-choice-$1" "the gmux did not bind; $note"
	elif [ "$got" != "$5" ]; then
		fail apple_gmux_ng "backlight-choice-$1" "gmux backlight $got, want $5; $note"
	elif [ "$got" = yes ] && [ "$type" != platform ]; then
		fail apple_gmux_ng "backlight-choice-$1" "type $type, want platform; $note"
	elif [ -z "$4" ] && [ "$n" -gt 1 ]; then
		fail apple_gmux_ng "backlight-choice-$1" "$n backlights for one panel; $note"
	else
		pass apple_gmux_ng "backlight-choice-$1" "$note${type:+ (gmux: $type)}"
	fi
}

# 6.1: the gmux is the vendor interface and a GPU driver gets its native
# backlight; 6.12: "vendor" is apple_bl's, and the boot's apple_gmux choice
# refuses the GPU driver its native one.
if [ "$NEW_CHOICE" = 1 ]; then
	ON_VENDOR=no AUTO_NATIVE_GPU=yes
else
	ON_VENDOR=yes AUTO_NATIVE_GPU=no
fi
one_case auto "" 0 "" yes
one_case auto-native-gpu "" 1 "" "$AUTO_NATIVE_GPU"
one_case video video 0 "" no
one_case vendor vendor 0 "" "$ON_VENDOR"
one_case native native 1 "" no
one_case apple-gmux apple_gmux 1 "" yes
one_case none none 0 "" no
one_case forced native 1 backlight=1 yes

# late_native LABEL GMUX_PARAM WANT_GMUX(yes|no) WANT_NATIVE(yes|no): the
# gmux probes first, on 6.1 on the "vendor" choice (no GPU driver has asked
# yet), then the GPU driver asks for a native backlight and registers it
# (i915 loading after the gmux on a T2 Mac). Without backlight=1 the gmux
# must withdraw its backlight and say so: one panel, one backlight. apple_bl
# (Debian 6.1's registers whatever the choice) must stay away while the
# choice is native, or a real Mac, whose APP0002 it binds, has two
# backlights again; it comes back on unload. From 6.12 on the gmux probes
# on the boot's apple_gmux choice, which stays: the GPU driver is told no
# and registers nothing, the gmux backlight stays, alone, and nothing is
# withdrawn.
late_native()
{
	unload_all
	modprobe apple_bl 2>/dev/null
	gmux_load $2
	before=$(ls /sys/class/backlight 2>/dev/null | tr '\n' ' ')
	abl_evicted=no
	[ -d /sys/module/apple_bl ] && abl_gone && abl_evicted=yes
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
	native=no
	[ -d /sys/class/backlight/test_native_backlight ] && native=yes
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
	elif [ "$native" != "$4" ]; then
		fail apple_gmux_ng "backlight-choice-$1" "native backlight $native, want $4; $note"
	elif { [ "$3" = no ] || [ "$4" = no ]; } && [ "$n" -ne 1 ]; then
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

if [ "$NEW_CHOICE" = 1 ]; then
	late_native late-native "" yes no
	late_native late-native-forced backlight=1 yes no
else
	late_native late-native "" no yes
	late_native late-native-forced backlight=1 yes yes
fi
unload_all

# apple_bl: declared as a soft dependency (on 6.12 too: its failure to load
# there is a softdep's, which modprobe ignores).
if modinfo -F softdep apple_gmux_ng 2>/dev/null | grep -q 'pre:.*apple_bl'; then
	pass apple_gmux_ng softdep-apple-bl "$(modinfo -F softdep apple_gmux_ng)"
else
	fail apple_gmux_ng softdep-apple-bl "softdep '$(modinfo -F softdep apple_gmux_ng 2>/dev/null)'"
fi

# 6.12: apple_bl, on its own, stays away while the kernel chose the gmux (the
# boot's apple_gmux): it must refuse to load, and the gmux backlight is the
# only one. On "vendor" the gmux leaves the backlight to apple_bl, whose
# driver stays registered while the gmux is bound and after it left.
if [ "$NEW_CHOICE" = 1 ]; then
	unload_all
	if ! modprobe macsupport_test_backlight; then
		fail apple_gmux_ng apple-bl-stays-away "cannot load the test helper"
		exit 0
	fi
	choice=$(cat /sys/module/macsupport_test_backlight/parameters/choice)
	abl_loaded=no
	modprobe apple_bl 2>/dev/null && abl_loaded=yes
	gmux_load
	got=no
	[ -d "$BL" ] && got=yes
	abl_now=no
	[ -d "$ABL" ] && abl_now=yes
	list=$(ls /sys/class/backlight 2>/dev/null | tr '\n' ' ')
	note="kernel chose $choice; apple_bl loaded $abl_loaded, its driver registered with the gmux bound $abl_now; backlights: ${list:-none}"
	if [ "$choice" != apple_gmux ]; then
		fail apple_gmux_ng apple-bl-stays-away "premise: want the boot's apple_gmux choice (acpi_backlight=${BOOT_BL:-(unset)} at boot); $note"
	elif [ "$abl_loaded" = yes ] || [ "$abl_now" = yes ]; then
		fail apple_gmux_ng apple-bl-stays-away "apple_bl loaded although the kernel chose the gmux; $note"
	elif [ "$got" != yes ] || [ "$(echo $list)" != gmux_backlight ]; then
		fail apple_gmux_ng apple-bl-stays-away "want the gmux backlight alone; $note"
	else
		pass apple_gmux_ng apple-bl-stays-away "$note"
	fi

	unload_all
	dmesg_mark abl-vendor
	if ! modprobe macsupport_test_backlight acpi_backlight=vendor; then
		fail apple_gmux_ng apple-bl-kept-on-vendor "cannot load the test helper"
		exit 0
	fi
	choice=$(cat /sys/module/macsupport_test_backlight/parameters/choice)
	if ! modprobe apple_bl || [ ! -d "$ABL" ]; then
		fail apple_gmux_ng apple-bl-kept-on-vendor "cannot load apple_bl although the kernel chose $choice"
		unload_all
		exit 0
	fi
	gmux_load
	bound=$(basename "$(readlink "$(gmux_pnp)/driver" 2>/dev/null)")
	got=no
	[ -d "$BL" ] && got=yes
	kept=no
	[ -d "$ABL" ] && kept=yes
	left=$(gmux_own_log abl-vendor | grep -o 'backlight left to another interface.*' | head -n 1)
	rmmod apple_gmux_ng
	after=no
	[ -d "$ABL" ] && after=yes
	note="kernel chose $choice; gmux bound to '$bound', its backlight $got; apple_bl's driver while bound $kept, after unload $after${left:+; gmux: $left}"
	if [ -z "$bound" ]; then
		fail apple_gmux_ng apple-bl-kept-on-vendor "premise: the gmux did not bind; $note"
	elif [ "$got" = yes ]; then
		fail apple_gmux_ng apple-bl-kept-on-vendor "gmux backlight on the vendor choice, apple_bl's; $note"
	elif [ "$kept" != yes ] || [ "$after" != yes ]; then
		fail apple_gmux_ng apple-bl-kept-on-vendor "apple_bl's driver gone; $note"
	elif [ "$left" != "backlight left to another interface (the kernel chose the vendor interface)" ]; then
		fail apple_gmux_ng apple-bl-kept-on-vendor "the gmux did not say it left the backlight to the vendor interface; $note"
	else
		pass apple_gmux_ng apple-bl-kept-on-vendor "$note"
	fi

	# A probe that fails on "vendor": the gmux answers the version (no
	# brightness reads: the backlight is apple_bl's), then sticks before
	# the interrupt is unmasked. (The classic gmux has no handshake.)
	if [ "$EXPECT_GMUX_KIND" != classic ]; then
		dmesg_mark abl-vendor-fail
		gmux-simctl stuck-after 1 > /dev/null
		gmux_load
		bound=$(basename "$(readlink "$(gmux_pnp)/driver" 2>/dev/null)")
		gmux-simctl fault none > /dev/null
		rmmod apple_gmux_ng 2>/dev/null
		why=$(gmux_own_log abl-vendor-fail | grep -o 'cannot unmask.*' | head -n 1 | cut -c 1-60)
		if [ -n "$bound" ] || [ -z "$why" ]; then
			fail apple_gmux_ng apple-bl-kept-after-failed-probe "premise: bound '$bound', log: '$(gmux_own_log abl-vendor-fail | tail -n 1 | cut -c 1-100)'"
		elif [ -d "$ABL" ]; then
			pass apple_gmux_ng apple-bl-kept-after-failed-probe "$why; apple_bl's driver kept"
		else
			fail apple_gmux_ng apple-bl-kept-after-failed-probe "$why; apple_bl's driver gone"
		fi
	fi
	unload_all
	exit 0
fi

# 6.1: apple_bl evicted while the gmux has the panel, given back.
rmmod apple_bl 2>/dev/null
if ! modprobe apple_bl || [ ! -d "$ABL" ]; then
	fail apple_gmux_ng apple-bl-given-back "cannot load apple_bl"
	exit 0
fi
dmesg_mark evict
gmux_load
evicted=no
abl_gone && evicted=yes
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
	skip apple_gmux_ng apple-bl-back-after-failed-probe "the classic gmux has no handshake to stick"
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
