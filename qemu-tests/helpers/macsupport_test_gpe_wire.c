// SPDX-License-Identifier: GPL-2.0
/*
 * macsupport_test_gpe_wire - TEST ONLY: the gmux's interrupt line for the
 * QEMU harness's gmux simulator
 *
 * On a Mac the gmux drives a GPIO that the chipset routes to a GPE
 * (0x16, or 0x15 on T2 Macs); while the gmux's interrupt status is set and
 * its interrupts are enabled, the GPE fires and its _Lxx method does
 * Notify(gmux, 0x80). In QEMU no software can set a GPE status bit, and
 * the simulated gmux lives in a host process. This module stands in for
 * the wire: a kernel thread watches the simulator's published interrupt
 * status and enable (GMUX_SIM_ST_INT_STATUS, GMUX_SIM_ST_INT_ENABLE in its
 * window), and while both are non-zero it evaluates \_GPE._Lxx, the
 * profile's own method, as the GPE would (level-triggered: again after
 * 20 ms while the status stays set). Everything after that is real: the
 * ACPI method, ACPICA's notify dispatch and apple_gmux_ng's handler.
 *
 * Parameters: gpe (the GPE number, e.g. 0x16); fired (read-only): how
 * many times the method was evaluated.
 *
 * Never installed by DKMS, never loaded outside QEMU.
 */

#include <linux/acpi.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "macsupport/gmux_sim.h"

#define WIRE_REFIRE_MS	20

static unsigned int gpe = 0x16;
module_param(gpe, uint, 0444);
MODULE_PARM_DESC(gpe, "GPE whose _Lxx method the gmux's line fires (default 0x16)");

static unsigned int fired;
module_param(fired, uint, 0444);
MODULE_PARM_DESC(fired, "times the GPE method was evaluated (read-only)");

static void __iomem *wire_win;
static struct task_struct *wire_task;
static char wire_method[16];

static bool wire_level(void)
{
	return ioread32(wire_win + GMUX_SIM_ST_INT_STATUS) &&
	       ioread32(wire_win + GMUX_SIM_ST_INT_ENABLE);
}

static int wire_thread(void *unused)
{
	unsigned long until;
	acpi_status as;

	while (!kthread_should_stop()) {
		if (!wire_level()) {
			usleep_range(500, 1000);
			continue;
		}
		as = acpi_evaluate_object(NULL, wire_method, NULL, NULL);
		if (ACPI_FAILURE(as))
			pr_warn_ratelimited("TEST ONLY: %s failed: %s\n", wire_method,
					    acpi_format_exception(as));
		WRITE_ONCE(fired, fired + 1);
		/* give the handler time to clear the status before firing again */
		until = jiffies + msecs_to_jiffies(WIRE_REFIRE_MS);
		while (!kthread_should_stop() && wire_level() && time_before(jiffies, until))
			usleep_range(500, 1000);
	}
	return 0;
}

static int __init wire_init(void)
{
	struct pci_dev *pdev;
	resource_size_t start;

	snprintf(wire_method, sizeof(wire_method), "\\_GPE._L%02X", gpe & 0xff);
	pdev = pci_get_device(0x1af4, 0x1110, NULL);	/* ivshmem-plain */
	if (!pdev) {
		pr_err("TEST ONLY: no gmux simulator (ivshmem-plain) in this guest\n");
		return -ENODEV;
	}
	start = pci_resource_start(pdev, 2);
	if (!start || pci_resource_len(pdev, 2) < GMUX_SIM_BAR_OFFSET + GMUX_SIM_WINDOW_LEN) {
		pci_dev_put(pdev);
		return -ENODEV;
	}
	/* only the published state is read; apple_gmux_ng owns the window */
	wire_win = ioremap(start + GMUX_SIM_BAR_OFFSET, GMUX_SIM_WINDOW_LEN);
	pci_dev_put(pdev);
	if (!wire_win)
		return -ENOMEM;
	if (ioread32(wire_win + GMUX_SIM_MAGIC) != GMUX_SIM_MAGIC_VALUE) {
		iounmap(wire_win);
		pr_err("TEST ONLY: no gmux simulator runs behind the ivshmem device\n");
		return -ENODEV;
	}
	wire_task = kthread_run(wire_thread, NULL, "gmux-gpe-wire");
	if (IS_ERR(wire_task)) {
		iounmap(wire_win);
		return PTR_ERR(wire_task);
	}
	pr_info("TEST ONLY: the simulated gmux's interrupt line fires %s\n", wire_method);
	return 0;
}
module_init(wire_init);

static void __exit wire_exit(void)
{
	kthread_stop(wire_task);
	iounmap(wire_win);
}
module_exit(wire_exit);

MODULE_DESCRIPTION("TEST ONLY: fires the gmux GPE method while the simulated gmux's interrupt is pending");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
