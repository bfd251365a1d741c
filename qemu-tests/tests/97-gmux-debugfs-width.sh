# SPDX-License-Identifier: GPL-2.0
#
# debugfs selected_port_data refuses a value wider than the selected
# register instead of writing part of it: 0x1ff to the
# 8-bit INTERRUPT_ENABLE (0x14) must fail with ERANGE and leave the register
# as it was; a 32-bit register (BRIGHTNESS, 0x74) still takes 32-bit
# values; text that is not a number is refused with EINVAL.

gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
gmux_load
dir=$(gmux_debugfs)
echo 0x14 > "$dir/selected_port"
before=$(gmux-simctl get int_enable)
r=$(timed-io write "$dir/selected_port_data" 0x1ff)
after=$(gmux-simctl get int_enable)
if [ "${r%% *}" = error ] && echo "$r" | grep -q ERANGE && [ "$after" = "$before" ]; then
	pass apple_gmux_ng debugfs-8bit-refuses-wide "0x1ff to 0x14: $(echo "$r" | cut -d ' ' -f 1-2), register stays $after"
else
	fail apple_gmux_ng debugfs-8bit-refuses-wide "0x1ff to 0x14: '$r', register $before -> $after"
fi
r=$(timed-io write "$dir/selected_port_data" 0x7f)
if [ "${r%% *}" = ok ] && [ "$(gmux-simctl get int_enable)" = 127 ]; then
	pass apple_gmux_ng debugfs-8bit-takes-byte "0x7f to 0x14"
else
	fail apple_gmux_ng debugfs-8bit-takes-byte "0x7f to 0x14: '$r', register $(gmux-simctl get int_enable)"
fi
echo 0xff > "$dir/selected_port_data"
echo 0x74 > "$dir/selected_port"
r=$(timed-io write "$dir/selected_port_data" 0x12345)
r2=$(timed-io write "$dir/selected_port_data" bogus)
if [ "${r%% *}" = ok ] && [ "$(gmux-simctl get brightness)" = $((0x12345)) ] &&
   echo "$r2" | grep -q "error EINVAL"; then
	pass apple_gmux_ng debugfs-32bit-write "0x12345 to 0x74 taken, 'bogus' refused with EINVAL"
else
	fail apple_gmux_ng debugfs-32bit-write "0x12345: '$r', gmux $(gmux-simctl get brightness); bogus: '$r2'"
fi
rmmod apple_gmux_ng
