# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel's console scan (harness.sh): CONFIG_DEBUG_KOBJECT_RELEASE holds
# a released kobject for 1-4 s, so kernel code that registers the same name
# again (video.ko reloaded by 54, a PCI slot re-created by a replug) dumps a
# stack from sysfs_warn_dup(). Such a dump, from its first line to </TASK>,
# is set aside when no module of the bundle or its test helpers is in it;
# every other line, interleaved ones included, is kept for the scan.
# Set aside sysfs_warn_dup() dumps of kernel code (no module of the bundle or
# its test helpers in the stack): print the rest of the console, and one
# "MACSUPPORT-SET-ASIDE <file>" line for each dump set aside.
function flush(keep,   i) {
	for (i = 1; i <= n; i++)
		if (keep || !dump[i]) print buf[i]
	if (!keep) print "MACSUPPORT-SET-ASIDE " name
	n = 0; inblk = 0
}
{
	sub(/\r$/, "")
	if (!inblk && match($0, /sysfs: cannot create duplicate filename '[^']*'/)) {
		inblk = 1; ours = 0; n = 0
		name = substr($0, RSTART + 41, RLENGTH - 42)
	}
	if (!inblk) { print; next }
	n++; buf[n] = $0
	dump[n] = ($0 ~ /sysfs: cannot create duplicate filename|CPU: [0-9]+ PID: |Hardware name: |Call Trace:|<\/?TASK>|^\[ *[0-9.]+\]  (\? )?[A-Za-z0-9_.]+\+0x[0-9a-f]+\/0x[0-9a-f]+|^\[ *[0-9.]+\]  \? 0x[0-9a-f]+$/)
	if ($0 ~ /\[(apple_gmux_ng|apple_props|tb_macpm|mac_quirks|macsupport_[a-z_]+)\]/) ours = 1
	if ($0 ~ /<\/TASK>/) flush(ours)
	else if (n > 200) flush(1)
}
END { if (inblk) flush(1) }
