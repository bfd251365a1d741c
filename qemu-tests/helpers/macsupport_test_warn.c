// SPDX-License-Identifier: GPL-2.0
/*
 * macsupport_test_warn - TEST ONLY: raises a WARN when loaded
 *
 * Proves that the harness fails closed: guests boot with panic_on_warn=1
 * and the host scans the console, so a boot that loads this module must be
 * counted as failed. Never installed by DKMS, never loaded outside QEMU.
 */

#include <linux/bug.h>
#include <linux/module.h>

static int __init macsupport_test_warn_init(void)
{
	WARN(1, "macsupport_test_warn: deliberate warning for the harness self-test\n");
	return 0;
}
module_init(macsupport_test_warn_init);

static void __exit macsupport_test_warn_exit(void)
{
}
module_exit(macsupport_test_warn_exit);

MODULE_DESCRIPTION("TEST ONLY: raises a WARN so the harness can prove it fails closed");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
