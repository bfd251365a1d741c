# SPDX-License-Identifier: GPL-2.0
#
# A Mac with several Thunderbolt controllers (MacPro6,1: three, each NHI with
# its own XRIN GPE): they power down and up independently. Controller 1's
# GPE (vmgenid, 0x05) and controller 2's (CPU hot-add, 0x02) are raised for
# real; controller 3's GPE (its real number) cannot be raised in QEMU: it
# stays off throughout, which shows that neither plug touched it.

[ "${EXPECT_APPLE:-0}" = 1 ] && [ "$(echo ${EXPECT_TB_NHI:-} | wc -w)" -ge 2 ] || return 0

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
		printf '%s ' "$(tb_attr $_i power_state)/$(tb_fw $_i TPWR)"
		_i=$((_i + 1))
	done
}
if t=$(wait_until 30 all_off); then
	pass tb_macpm all-controllers-off "$n controllers off in $t s: $(powers)"
else
	fail tb_macpm all-controllers-off "$(powers)"
	return 0
fi
i=1
while [ $i -le "$n" ]; do
	src=$(tb_nth "$EXPECT_TB_GPE_SOURCE" $i)
	if [ "$src" = none ] || [ "$src" = "" ]; then
		i=$((i + 1))
		continue
	fi
	tb_fw_set $i TPLG 1
	tb_raise $i
	if wait_until 15 tb_is $i on > /dev/null; then
		others=ok
		j=1
		while [ $j -le "$n" ]; do
			[ $j = $i ] || tb_is $j off || others="controller $j on"
			j=$((j + 1))
		done
		if [ "$others" = ok ]; then
			pass tb_macpm "independent-$i" "GPE of controller $i ($src, 0x$(tb_gpe $i)) powered only it: $(powers)"
		else
			fail tb_macpm "independent-$i" "$others: $(powers)"
		fi
	else
		fail tb_macpm "independent-$i" "controller $i not on: $(tb_state $i)"
	fi
	tb_fw_set $i TPLG 0
	wait_until 20 all_off > /dev/null
	i=$((i + 1))
done
check tb_macpm all-off-at-end all_off
