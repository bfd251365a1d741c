# SPDX-License-Identifier: GPL-2.0
#
# Harness self-test: the guest reports a pass, then powers off without
# finishing its report; the host must count this boot as failed.

pass harness selftest-silent
sync
poweroff -f
