# SPDX-License-Identifier: GPL-2.0
#
# Raw register writes through debugfs work, and are refused once the
# kernel is locked down, also through a file opened before. Runs last:
# lockdown cannot be lifted and forbids loading unsigned modules.

gmux_simulated || skip_test apple_gmux_ng "no simulated gmux on $PROFILE"
gmux_load
dir=$(gmux_debugfs)
echo 0x74 > "$dir/selected_port"
echo 0x1234 > "$dir/selected_port_data"
if [ "$(gmux-simctl get brightness)" = $((0x1234)) ] &&
   [ "$(cat "$dir/selected_port_data")" = 0x1234 ]; then
	pass apple_gmux_ng debugfs-raw-write "register 0x74 = 0x1234"
else
	fail apple_gmux_ng debugfs-raw-write "gmux brightness $(gmux-simctl get brightness)"
fi

mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
exec 3> "$dir/selected_port_data"
echo integrity > /sys/kernel/security/lockdown
echo 0x2222 >&3 2>/tmp/err
rc=$?
exec 3>&-
r=$(timed-io write "$dir/selected_port_data" 0x3333)
# gmux-simctl cannot map the window under lockdown; the driver reads it back.
level=$(cat "$BL/actual_brightness")
if [ "$rc" != 0 ] && [ "${r%% *}" = error ] && [ "$level" = $((0x1234)) ]; then
	pass apple_gmux_ng lockdown-refuses-raw-write "open fd: $(sed 's/.*: //' /tmp/err); new open: $r"
else
	fail apple_gmux_ng lockdown-refuses-raw-write "rc $rc, new open '$r', gmux brightness $level"
fi
rmmod apple_gmux_ng
