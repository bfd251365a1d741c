# SPDX-License-Identifier: GPL-2.0
#
# "make demo" shows the bundle working: this runs the demo's guest part
# (guest/demo.sh) in the profile that make demo boots (EXPECT_DEMO=1), in
# this boot instead of one of its own, and checks what it printed against
# the live system (guest/demo-check.sh): the gmux bound to apple_gmux_ng
# and said to be the harness's simulator, a backlight round trip through
# the simulator's register, Apple's device properties, GPU switching or the
# line saying it is not there, the Thunderbolt and quirk reports, and no
# line a user would take for a fault. Afterwards it unloads what the demo
# loaded.

[ "${EXPECT_DEMO:-0}" = 1 ] || skip_test harness "the demo runs on another profile"

before=" $(cut -d ' ' -f 1 /proc/modules | tr '\n' ' ')"
for m in $BUNDLE_MODULES; do
	[ -e "/sys/module/$m" ] && rmmod "$m"
done
( . /etc/macsupport/demo.sh ) > /tmp/demo.out 2>&1
DEMO_OUT=/tmp/demo.out . /etc/macsupport/demo-check.sh
# The demo's output, in the console log for whoever reads a failure.
sed 's/^/[demo] /' /tmp/demo.out

# The bundle, then what came with it (newest first, as /proc/modules lists them).
for m in $BUNDLE_MODULES $(cut -d ' ' -f 1 /proc/modules); do
	case "$before" in
	*" $m "*) continue ;;
	esac
	[ -e "/sys/module/$m" ] && rmmod "$m"
done
:
