# SPDX-License-Identifier: GPL-2.0
#
# Harness self-test: a test-only module WARNs. With panic_on_warn=1 the
# guest dies; the host must count this boot as failed.

pass harness selftest-before-warn
modprobe macsupport_test_warn
pass harness selftest-after-warn "must not be reached"
