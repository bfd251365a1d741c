# SPDX-License-Identifier: GPL-2.0
#
# Harness self-test: the guest reports a pass, then hangs; the host's
# timeout must stop it and count this boot as failed.

pass harness selftest-hang
while :; do sleep 60; done
