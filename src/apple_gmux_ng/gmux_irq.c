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
 *
 * The handler reads the status again after clearing it. A status that does
 * not clear, or a gmux that does not answer, keeps the level-triggered GPE
 * firing (at up to two handshake timeouts per attempt when it does not
 * answer); that must not cost more than a bounded number of attempts.
 * A notification whose status stays set is still completed (GMSP,
 * unmask), so that one late bit costs nothing.
 * After GMUX_NOTIFY_MAX_FAILURES notifications in a row failed, the driver
 * disables the GPE and runs without the interrupt until it is reloaded;
 * debugfs state shows it. Without a GMGP object, or when the GPE cannot be
 * enabled, the driver runs without the interrupt from the start.
 *
 * System sleep masks the interrupt and resume unmasks it. Neither fails:
 * a gmux that does not answer must not keep the machine awake. If the
 * unmask at resume fails, a work item retries (every 0.5 s, backing off to
 * 5 s) until the gmux answers, then puts the backlight level back too.
 */

static int gmux_irq_set_enabled(struct apple_gmux_ng *gmux, bool enable)
{
	return regmap_write(gmux->regmap, GMUX_PORT_INTERRUPT_ENABLE,
			    enable ? GMUX_INT_ENABLE : GMUX_INT_DISABLE);
}

/* The interrupt should be unmasked now. Called with irq_lock held. */
static bool gmux_irq_wanted(struct apple_gmux_ng *gmux)
{
	return gmux->gpe >= 0 && !gmux->gpe_off && !gmux->irq_stopping && !gmux->suspended;
}

/*
 * A notification failed: the gmux could not be reached (@ret), or else
 * @left is the status that would not clear. Called with irq_lock held.
 */
static void gmux_notify_failed(struct apple_gmux_ng *gmux, u32 event, int ret,
			       unsigned int left)
{
	struct device *dev = &gmux->pnp->dev;

	atomic_inc(&gmux->notify_errors);
	gmux->notify_fail_run++;
	if (ret)
		dev_warn_ratelimited(dev, "notify 0x%x: gmux access failed: %pe\n", event,
				     ERR_PTR(ret));
	else
		dev_warn_ratelimited(dev, "notify 0x%x: interrupt status 0x%02x does not clear\n",
				     event, left);
	if (gmux->notify_fail_run < GMUX_NOTIFY_MAX_FAILURES)
		return;
	acpi_disable_gpe(NULL, gmux->gpe);
	gmux->gpe_off = true;
	dev_err(dev, "%u notifications in a row failed: GPE 0x%x disabled, running without the gmux interrupt\n",
		gmux->notify_fail_run, gmux->gpe);
}

#define GMUX_UNMASK_RETRY_FIRST	(HZ / 2)
#define GMUX_UNMASK_RETRY_MAX	(5 * HZ)

/* Have gmux_unmask_work() unmask once the gmux answers; irq_lock held. */
static void gmux_irq_unmask_later(struct apple_gmux_ng *gmux)
{
	gmux->unmask_pending = true;
	gmux->unmask_retries = 0;
	schedule_delayed_work(&gmux->unmask_work, GMUX_UNMASK_RETRY_FIRST);
}

static void gmux_notify_handler(acpi_handle handle, u32 event, void *context)
{
	struct apple_gmux_ng *gmux = context;
	struct device *dev = &gmux->pnp->dev;
	unsigned int status, now, left = 0;
	bool power = false, hotplug = false;
	acpi_status as;
	int ret;

	mutex_lock(&gmux->irq_lock);
	if (gmux->gpe_off || gmux->irq_stopping) {
		/* queued before the GPE went off */
		atomic_inc(&gmux->notify_ignored);
		goto out;
	}
	ret = regmap_read(gmux->regmap, GMUX_PORT_INTERRUPT_STATUS, &status);
	if (ret)
		goto err;
	ret = regmap_write(gmux->regmap, GMUX_PORT_INTERRUPT_ENABLE, GMUX_INT_DISABLE);
	if (ret)
		goto err;
	ret = regmap_write(gmux->regmap, GMUX_PORT_INTERRUPT_STATUS, status);
	if (ret)
		goto err;
	power = status & GMUX_INT_POWER;
	hotplug = status & GMUX_INT_HOTPLUG;
	/* a status that stays keeps the level-triggered GPE firing */
	ret = regmap_read(gmux->regmap, GMUX_PORT_INTERRUPT_STATUS, &now);
	if (ret)
		goto err;
	left = now & status;
	if (gmux->io.kind == MAC_GMUX_T2) {
		as = acpi_execute_simple_method(handle, "GMSP", 0);
		if (ACPI_FAILURE(as))
			dev_warn_ratelimited(dev, "GMSP(0) failed: %s\n",
					     acpi_format_exception(as));
	}
	if (gmux_irq_wanted(gmux)) {
		ret = gmux_irq_set_enabled(gmux, true);
		if (ret)
			goto err;
		gmux->unmask_pending = false;
	}
	if (left)
		goto err;
	gmux->notify_fail_run = 0;
	atomic_or(status, &gmux->status_seen);
	atomic_inc(&gmux->notify_count);
	dev_dbg(dev, "notify 0x%x, interrupt status 0x%02x\n", event, status);
	goto out;

err:
	gmux_notify_failed(gmux, event, ret, left);
	/*
	 * An access failed, perhaps after the mask went through: unmask from
	 * the work once the gmux answers, or the interrupt stays off for good.
	 */
	if (ret && gmux_irq_wanted(gmux) && !gmux->unmask_pending)
		gmux_irq_unmask_later(gmux);
out:
	mutex_unlock(&gmux->irq_lock);
	/* cleared: a waiting dGPU power change is done */
	if (power)
		gmux_power_irq(gmux);
	if (hotplug)
		gmux_runpm_hotplug(gmux);
}

/* Unmask once the gmux answers again, then put the backlight level back. */
static void gmux_unmask_work(struct work_struct *work)
{
	struct apple_gmux_ng *gmux = container_of(to_delayed_work(work), struct apple_gmux_ng,
						  unmask_work);
	unsigned long delay;
	bool done = false;
	int ret;

	mutex_lock(&gmux->irq_lock);
	if (!gmux->unmask_pending || !gmux_irq_wanted(gmux))
		goto out;
	ret = gmux_irq_set_enabled(gmux, true);
	if (ret) {
		gmux->unmask_retries++;
		delay = GMUX_UNMASK_RETRY_FIRST << min(gmux->unmask_retries, 4U);
		schedule_delayed_work(&gmux->unmask_work, min(delay, GMUX_UNMASK_RETRY_MAX));
		goto out;
	}
	gmux->unmask_pending = false;
	done = true;
	dev_info(&gmux->pnp->dev, "the gmux answers again (after %u retries): interrupt unmasked\n",
		 gmux->unmask_retries);
out:
	mutex_unlock(&gmux->irq_lock);
	/* its resume, after ours, could not reach the gmux either */
	if (done)
		gmux_backlight_refresh(gmux);
}

/**
 * gmux_irq_suspend() - mask the gmux interrupt for a system sleep
 * @gmux: the gmux
 *
 * Never fails: a gmux that does not answer is logged and the machine
 * sleeps anyway.
 */
void gmux_irq_suspend(struct apple_gmux_ng *gmux)
{
	int ret;

	cancel_delayed_work_sync(&gmux->unmask_work);
	mutex_lock(&gmux->irq_lock);
	gmux->suspended = true;
	gmux->suspend_count++;
	if (gmux->gpe >= 0 && !gmux->irq_stopping) {
		ret = gmux_irq_set_enabled(gmux, false);
		if (ret)
			dev_warn(&gmux->pnp->dev, "cannot mask the gmux interrupt for sleep (%pe); sleeping anyway\n",
				 ERR_PTR(ret));
	}
	mutex_unlock(&gmux->irq_lock);
}

/**
 * gmux_irq_resume() - unmask the gmux interrupt after a system sleep
 * @gmux: the gmux
 *
 * If the gmux does not take it, retries from a work item until it does.
 */
void gmux_irq_resume(struct apple_gmux_ng *gmux)
{
	int ret;

	mutex_lock(&gmux->irq_lock);
	gmux->suspended = false;
	gmux->resume_count++;
	if (gmux_irq_wanted(gmux)) {
		ret = gmux_irq_set_enabled(gmux, true);
		gmux->unmask_pending = false;
		if (ret) {
			dev_warn(&gmux->pnp->dev, "cannot unmask the gmux interrupt after sleep (%pe); retrying until the gmux answers\n",
				 ERR_PTR(ret));
			gmux_irq_unmask_later(gmux);
		}
	}
	mutex_unlock(&gmux->irq_lock);
}

/* The reverse of gmux_irq_init(). */
static void gmux_irq_exit(void *data)
{
	struct apple_gmux_ng *gmux = data;
	bool gpe_on;

	/* From here on nothing unmasks: not the handler, not the work. */
	mutex_lock(&gmux->irq_lock);
	gmux->irq_stopping = true;
	gpe_on = !gmux->gpe_off;
	gmux->gpe_off = true;
	mutex_unlock(&gmux->irq_lock);
	cancel_delayed_work_sync(&gmux->unmask_work);

	gmux_irq_set_enabled(gmux, false);
	if (gpe_on)
		acpi_disable_gpe(NULL, gmux->gpe);
	/* waits for a running handler, which now returns at once */
	acpi_remove_notify_handler(gmux->handle, ACPI_DEVICE_NOTIFY, gmux_notify_handler);
	/* what the last hotplug notifications queued */
	cancel_work_sync(&gmux->runpm.hotplug_work);
}

/**
 * gmux_irq_init() - take the gmux interrupt
 * @gmux: the gmux, with its regmap ready
 *
 * Without a GMGP object, or if the notify handler cannot be installed or
 * the GPE cannot be enabled, the gmux works on without interrupts.
 *
 * Return: 0 or a negative errno (the gmux did not take the unmask).
 */
int gmux_irq_init(struct apple_gmux_ng *gmux)
{
	struct device *dev = &gmux->pnp->dev;
	unsigned long long gpe;
	acpi_status as;
	int ret;

	gmux->gpe = -1;
	INIT_DELAYED_WORK(&gmux->unmask_work, gmux_unmask_work);
	as = acpi_evaluate_integer(gmux->handle, "GMGP", NULL, &gpe);
	if (ACPI_FAILURE(as)) {
		dev_info(dev, "no GMGP object: running without the gmux interrupt\n");
		return 0;
	}

	/* before the handler can run: it may disable the GPE */
	gmux->gpe = gpe;
	as = acpi_install_notify_handler(gmux->handle, ACPI_DEVICE_NOTIFY,
					 gmux_notify_handler, gmux);
	if (ACPI_FAILURE(as)) {
		gmux->gpe = -1;
		dev_warn(dev, "cannot install the notify handler (%s): running without the gmux interrupt\n",
			 acpi_format_exception(as));
		return 0;
	}
	as = acpi_enable_gpe(NULL, gpe);
	if (ACPI_FAILURE(as)) {
		acpi_remove_notify_handler(gmux->handle, ACPI_DEVICE_NOTIFY, gmux_notify_handler);
		gmux->gpe = -1;
		dev_warn(dev, "cannot enable GPE 0x%llx (%s): running without the gmux interrupt\n",
			 gpe, acpi_format_exception(as));
		return 0;
	}

	ret = devm_add_action_or_reset(dev, gmux_irq_exit, gmux);
	if (ret)
		return ret;
	ret = gmux_irq_set_enabled(gmux, true);
	if (ret)
		return dev_err_probe(dev, ret, "cannot unmask the gmux interrupt\n");
	return 0;
}
