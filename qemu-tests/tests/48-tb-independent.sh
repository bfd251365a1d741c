# SPDX-License-Identifier: GPL-2.0
#
# A Mac with several Thunderbolt controllers (MacPro6,1: three, each NHI with
# its own XRIN GPE): they power down and up independently. Controller 1's
# plug GPE (0x02, a QMP CPU hot-add/unplug request) is raised for real;
# controllers 2 and 3 keep their real GPE numbers (0x15, 0x13), which QEMU
# 7.2 cannot raise (vmgenid's GPE 0x05 does not work either: qom-set of its
# guid is refused after realize). A controller whose GPE source is "none" is
# powered up through its NHI instead: tb_hold takes a runtime-PM reference
# on the NHI through the stand-in driver (what thunderbolt.ko does for an
# XDomain peer), which must power up that controller only; after the
# release it goes off again. Each time, every other controller stays off.

[ "${EXPECT_APPLE:-0}" = 1 ] && [ "$(echo ${EXPECT_TB_NHI:-} | wc -w)" -ge 2 ] || skip_test tb_macpm "fewer than two Thunderbolt controllers on $PROFILE"
case " ${EXPECT_TB_GEN:-} " in
*" alpine-ridge "*|*" titan-ridge "*)
	skip_test tb_macpm "Thunderbolt 3 controllers on $PROFILE: written for XRIN GPEs; 42-tb3-power.sh checks that a second Titan Ridge controller stays off" ;;
esac

tb_load
n=$(echo $EXPECT_TB_NHI | wc -w)
for nhi in $EXPECT_TB_NHI; do
	tb_fast "$nhi"
done
all_off()
{
	_i=1
	while [ $_i -le "$n" ]; do
		tb_is $_i off || return 1
		_i=$((_i + 1))
	done
}
powers() {
	_i=1
	while [ $_i -le "$n" ]; do
		printf '%s ' "$(tb_attr $_i power_state)/$(tb_fw $_i ZPWR)"
		_i=$((_i + 1))
	done
}
if t=$(wait_until 30 all_off); then
	pass tb_macpm all-controllers-off "$n controllers off in $t s: $(powers)"
else
	fail tb_macpm all-controllers-off "$(powers)"
	return 0
fi
# others_off I: every controller but I is off ("ok"), else which is on
others_off()
{
	_j=1
	while [ $_j -le "$n" ]; do
		[ $_j = "$1" ] || tb_is $_j off || { echo "controller $_j on"; return; }
		_j=$((_j + 1))
	done
	echo ok
}
# ups: every controller's power-up count (the SSDT's ZCON)
ups()
{
	_i=1
	while [ $_i -le "$n" ]; do
		printf '%s ' "$(tb_fw $_i ZCON)"
		_i=$((_i + 1))
	done
}
# only_on I HOW UPS0: controller I was powered up (by HOW; its count moved
# from UPS0) and every other stayed off, its count unchanged. Counted, not
# caught "on": a controller let go may be off again before a slow guest
# (the debug kernel's) looks.
only_on()
{
	_up() { [ "$(tb_fw "$1" ZCON)" -gt "$(echo "$3" | awk -v i="$1" '{ print $i }')" ]; }
	if wait_until 15 _up "$1" "$2" "$3" > /dev/null; then
		_o=$(others_off "$1")
		_u=$(ups)
		_moved=$(echo "$3|$_u" | awk -F'|' -v me="$1" '{ split($1, a, " "); split($2, b, " ");
			for (k in a) if (k != me && a[k] != b[k]) printf "%d ", k }')
		if [ "$_o" = ok ] && [ -z "$_moved" ]; then
			pass tb_macpm "independent-$1" "$2 powered only it: power-ups $3-> $_u, now $(powers)"
		else
			fail tb_macpm "independent-$1" "${_o#ok}${_moved:+ controller(s) $_moved powered up too}: power-ups $3-> $_u, now $(powers)"
		fi
	else
		fail tb_macpm "independent-$1" "controller $1 not powered up ($2): power-ups $3-> $(ups); $(tb_state "$1")"
	fi
}
i=1
while [ $i -le "$n" ]; do
	src=$(tb_nth "$EXPECT_TB_GPE_SOURCE" $i)
	nhi=$(tb_nth "$EXPECT_TB_NHI" $i)
	ups0=$(ups)
	if [ "$src" = none ] || [ "$src" = "" ]; then
		# no plug GPE QEMU can raise: the NHI's own runtime PM
		tb_hold "$nhi" 1
		only_on $i "holding the NHI of controller $i ($nhi, GPE 0x$(tb_gpe $i) never raised)" "$ups0"
		tb_hold "$nhi" 0
		if t=$(wait_until 20 tb_is $i off); then
			pass tb_macpm "independent-$i-released" "controller $i off again $t s after the release: $(powers)"
		else
			fail tb_macpm "independent-$i-released" "controller $i not off after the release: $(tb_state $i)"
		fi
	else
		w0=$(tb_attr $i gpe_wakes)
		tb_fw_set $i ZPLG 1
		tb_raise $i
		# the plug level goes as soon as the wake is taken (as in 49):
		# while it stays, XRIL refuses each power-down, and a slow guest
		# (the debug kernel's) checking meanwhile lets five refusals in a
		# row leave the controller on for good, as designed
		woke() { [ "$(tb_attr $i gpe_wakes)" != "$w0" ]; }
		wait_until 15 woke > /dev/null
		tb_fw_set $i ZPLG 0
		only_on $i "GPE of controller $i ($src, 0x$(tb_gpe $i))" "$ups0"
	fi
	wait_until 20 all_off > /dev/null
	i=$((i + 1))
done
check tb_macpm all-off-at-end all_off
