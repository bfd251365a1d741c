# SPDX-License-Identifier: GPL-2.0
#
# The CPU seconds (user and system) of a shell's children in the output of
# bash's "times" (its second line), to one decimal. Run "times" in the
# shell itself, not in $(...) or a pipe, whose subshell has waited for none
# of them. Used by lib/harness.sh (per boot) and check (per part).
NR == 2 {
	for (i = 1; i <= 2; i++) {
		split($i, t, "m")
		s += t[1] * 60 + t[2]
	}
	printf "%.1f", s
}
