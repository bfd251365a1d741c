// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - interrupt
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include <linux/acpi.h>

#include "gmux.h"

/**
 * DOC: Interrupt
 *
 * The gmux signals display switches, dGPU power completions and hotplug
 * on a GPIO that the firmware routes to a GPE; the GMGP object names it
 * (0x16 before the T2, 0x15 on T2 Macs). The GPE's _Lxx method does
 * Notify(gmux, 0x80). The handler reads the status (0x16), masks the
 * interrupt (0x14 = 0), clears the status by writing it back and unmasks.
 * T2 firmware answers _OSI("Darwin") by leaving the GPIO armed only until
 * GMSP(0) is called; without that call every interrupt is followed by an
 * endless flood of notifications with status 0, so the handler calls it.
 */

static void gmux_notify_handler(acpi_handle handle, u32 event, void *context)
{
	struct apple_gmux_ng *gmux = context;
	struct device *dev = &gmux->pnp->dev;
	unsigned int status;
	acpi_status as;
	int ret;

	ret = regmap_read(gmux->regmap, GMUX_PORT_INTERRUPT_STATUS, &status);
	if (ret)
		goto err;
	ret = regmap_write(gmux->regmap, GMUX_PORT_INTERRUPT_ENABLE, GMUX_INT_DISABLE);
	if (ret)
		goto err;
	ret = regmap_write(gmux->regmap, GMUX_PORT_INTERRUPT_STATUS, status);
	if (ret)
		goto err;
	if (gmux->io.kind == MAC_GMUX_T2) {
		as = acpi_execute_simple_method(handle, "GMSP", 0);
		if (ACPI_FAILURE(as))
			dev_warn_ratelimited(dev, "GMSP(0) failed: %s\n",
					     acpi_format_exception(as));
	}
	if (!gmux->suspended) {
		ret = regmap_write(gmux->regmap, GMUX_PORT_INTERRUPT_ENABLE, GMUX_INT_ENABLE);
		if (ret)
			goto err;
	}
	atomic_or(status, &gmux->status_seen);
	atomic_inc(&gmux->notify_count);
	dev_dbg(dev, "notify 0x%x, interrupt status 0x%02x\n", event, status);
	return;

err:
	atomic_inc(&gmux->notify_errors);
	dev_warn_ratelimited(dev, "notify 0x%x: gmux access failed: %pe\n", event, ERR_PTR(ret));
}

/**
 * gmux_irq_set_enabled() - unmask or mask the gmux interrupt
 * @gmux: the gmux
 * @enable: unmask if true
 *
 * Return: 0 or a negative errno from the register access.
 */
int gmux_irq_set_enabled(struct apple_gmux_ng *gmux, bool enable)
{
	return regmap_write(gmux->regmap, GMUX_PORT_INTERRUPT_ENABLE,
			    enable ? GMUX_INT_ENABLE : GMUX_INT_DISABLE);
}

static void gmux_irq_exit(void *data)
{
	struct apple_gmux_ng *gmux = data;

	/* waits for a running handler, which could unmask again */
	acpi_remove_notify_handler(gmux->handle, ACPI_DEVICE_NOTIFY, gmux_notify_handler);
	acpi_disable_gpe(NULL, gmux->gpe);
	gmux_irq_set_enabled(gmux, false);
}

/**
 * gmux_irq_init() - take the gmux interrupt
 * @gmux: the gmux, with its regmap ready
 *
 * Without a GMGP object the gmux still works, only without interrupts.
 *
 * Return: 0 or a negative errno.
 */
int gmux_irq_init(struct apple_gmux_ng *gmux)
{
	struct device *dev = &gmux->pnp->dev;
	unsigned long long gpe;
	acpi_status as;
	int ret;

	gmux->gpe = -1;
	as = acpi_evaluate_integer(gmux->handle, "GMGP", NULL, &gpe);
	if (ACPI_FAILURE(as)) {
		dev_info(dev, "no GMGP object: running without the gmux interrupt\n");
		return 0;
	}

	as = acpi_install_notify_handler(gmux->handle, ACPI_DEVICE_NOTIFY,
					 gmux_notify_handler, gmux);
	if (ACPI_FAILURE(as)) {
		dev_err(dev, "cannot install the notify handler: %s\n", acpi_format_exception(as));
		return -ENODEV;
	}
	as = acpi_enable_gpe(NULL, gpe);
	if (ACPI_FAILURE(as)) {
		acpi_remove_notify_handler(gmux->handle, ACPI_DEVICE_NOTIFY, gmux_notify_handler);
		dev_err(dev, "cannot enable GPE 0x%llx: %s\n", gpe, acpi_format_exception(as));
		return -ENODEV;
	}
	gmux->gpe = gpe;

	ret = devm_add_action_or_reset(dev, gmux_irq_exit, gmux);
	if (ret)
		return ret;
	return gmux_irq_set_enabled(gmux, true);
}
