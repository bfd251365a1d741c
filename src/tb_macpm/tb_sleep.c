// SPDX-License-Identifier: GPL-2.0
/*
 * tb_macpm - a controller's power switch across system sleep
 *
 * What the PM and PCI cores do to the controller in each phase, the plug
 * disarmed for the transition, the power-up in resume_noirq of a
 * controller that stayed off, and Alpine Ridge's copies of the chip's
 * config space. The power switch's dev_pm_ops, its runtime callbacks
 * (tb_power.c) included.
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/pm_runtime.h>
#include <linux/slab.h>

#include "tb_macpm.h"

/**
 * DOC: System sleep
 *
 * What the PM and PCI cores of 6.1 do to a controller that is off when
 * sleep begins is not ours to change (nor should a PM domain or similar
 * trick override it):
 *
 * - S3: pci_pm_suspend() runtime-resumes every PCI bridge
 *   (acpi_pci_need_resume() is true for bridges whenever the target state
 *   is not S0), the controller's upstream and downstream ports among them.
 *   Resuming a port resumes this switch first (device link), so the
 *   controller is powered up in the suspend phase, from the suspend
 *   callback of the first of its ports (or its NHI) that the PM core
 *   handles. Real gen1 firmware sleeps at least 2 s in XRPE(1).
 * - With a driver on the NHI, thunderbolt.ko on every real Mac: its NHI is
 *   wakeup-enabled (and a supplier of the hotplug ports), so never
 *   direct-complete, and its driver has no DPM_FLAG_SMART_SUSPEND, so
 *   pci_pm_suspend() resumes it, and its parents and this switch with it,
 *   on S3 and s2idle alike; the controller must be powered for the NHI's
 *   own suspend callback.
 * - Only on s2idle with no driver on the NHI does the controller stay off:
 *   the ports keep their runtime suspend (pcieport's SMART_SUSPEND, the
 *   devices are D3cold) and a driverless NHI is not resumed. But pcieport
 *   has no DPM_FLAG_MAY_SKIP_RESUME, so the upstream port's resume_noirq
 *   restores it from D3cold: this switch's resume_noirq, which the PM core
 *   runs before its consumer's, resets the power switch (XRPE(0) first:
 *   firmware may have changed it; Apple's powers the controller on resume
 *   from S3) and powers the controller up. Not handled there: the links
 *   from the hotplug ports keep the driverless NHI off the direct-complete
 *   path, so the PCI core saves its config space in suspend_noirq while it
 *   is unpowered (all ones on real hardware) and writes that back in
 *   resume_noirq; nothing uses an NHI without a driver, but its BARs read
 *   wrong from then on.
 * - A sleep aborted before the noirq phase (a failed suspend callback, a
 *   wakeup event, pm_test=devices) resumes the ports without any
 *   resume_noirq, and pci_pm_resume() restores the upstream port's config
 *   space: this switch's resume, run before its consumer's, powers up
 *   first. Not covered: an abort that falls between the upstream port's
 *   suspend callback and this switch's, in the same phase; the PCI core
 *   then finds the port inaccessible and says so, and the next runtime
 *   resume of the port powers the controller and restores it.
 *
 * The plug GPE is disarmed for the transition. Once idle after resume, the
 * controller goes off again by runtime PM; if nothing powered it up, the
 * GPE is re-armed in complete.
 */
static int tb_ctrl_prepare(struct device *dev)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);

	mutex_lock(&ctrl->lock);
	ctrl->sleep_off = ctrl->off;
	ctrl->in_sleep = true;
	tb_disarm(ctrl);
	mutex_unlock(&ctrl->lock);
	return 0;
}

/*
 * Copy the config space of one of the chip's functions, if it answers now
 * (not unpowered, nor behind a port in D3) and the PM core will call its
 * callbacks (not direct-complete).
 */
static void tb_chip_add(struct tb_ctrl *ctrl, struct pci_dev *pdev)
{
	struct pci_saved_state *state;
	bool saved = pdev->state_saved;
	u32 id;

	if (ctrl->nchip >= TB_CHIP_MAX || pdev->current_state == PCI_D3cold ||
	    pdev->dev.power.direct_complete)
		return;
	if (pci_read_config_dword(pdev, PCI_VENDOR_ID, &id) || PCI_POSSIBLE_ERROR(id))
		return;
	pci_save_state(pdev);
	state = pci_store_saved_state(pdev);
	/*
	 * The device's own saved state now holds what it holds anyway; the
	 * flag as it was, so that the core saves and suspends it in its noirq
	 * phase as ever.
	 */
	pdev->state_saved = saved;
	if (!state)
		return;
	ctrl->chip[ctrl->nchip] = pci_dev_get(pdev);
	ctrl->chip_state[ctrl->nchip++] = state;
}

/*
 * The chip's own functions: the upstream port, its downstream ports and
 * what sits below those that are not hotplug ports (the NHI, the xHCI);
 * not the tunnelled devices below the hotplug ports.
 */
static int tb_chip_one(struct pci_dev *pdev, void *data)
{
	struct tb_ctrl *ctrl = data;
	struct pci_dev *up = pdev->bus->self;

	if (pdev->bus == ctrl->upsb->subordinate ||
	    (up && up->bus == ctrl->upsb->subordinate && !up->is_hotplug_bridge))
		tb_chip_add(ctrl, pdev);
	return 0;
}

/* Drop the copies (ctrl->lock held). */
void tb_chip_release(struct tb_ctrl *ctrl)
{
	ctrl->chip_loaded = false;
	while (ctrl->nchip) {
		ctrl->nchip--;
		kfree(ctrl->chip_state[ctrl->nchip]);
		pci_dev_put(ctrl->chip[ctrl->nchip]);
	}
}

/*
 * Alpine Ridge, system sleep: thunderbolt.ko's suspend_noirq of the NHI
 * puts the chip's link controller to sleep (tb_switch_suspend() ->
 * tb_lc_set_sleep()), and from then on every function of the chip, its
 * upstream and downstream ports too, reads all-ones (a MacBookPro14,1
 * owner's measurements, see mac_quirks' tb_alpine_ridge_s3). The PCI core
 * and the xHCI's driver save a device's config space in that same phase,
 * in an order the NHI's sleep does not wait for (the ports after it, the
 * xHCI, its cousin, either way), and write the saved values back on
 * resume: all-ones after S3 (bus numbers 0xff, the NHI and the xHCI gone,
 * resumes of a minute and more) and after suspend to idle. So, for a
 * controller powered when sleep begins, the late phase keeps a copy of
 * each of the chip's functions while it still answers, and this
 * switch's suspend_noirq, which the PM core runs after every device below
 * the upstream port (its consumer), loads the copies over what the noirq
 * phase saved; everything else in the core's handling (the D3 transitions,
 * wake-up, the restores on resume) stays as it is. Titan Ridge is not
 * touched: nobody has reported its functions unreadable there.
 *
 * Not known: thunderbolt.ko's runtime suspend of the NHI calls
 * tb_lc_set_sleep() too (tb_runtime_suspend()), before the ports above it
 * runtime-suspend and save their config space. If the chip reads all-ones
 * then as well, what the PCI core restores after a power cycle of this
 * switch is wrong on a real Alpine Ridge Mac; nobody has measured it, and
 * the harness models the chip's sleep in system sleep only.
 */
static int tb_ctrl_suspend_late(struct device *dev)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	unsigned int n;

	if (ctrl->gen != MAC_TB_ALPINE_RIDGE)
		return 0;
	mutex_lock(&ctrl->lock);
	tb_chip_release(ctrl);
	if (!ctrl->off && !ctrl->dying) {
		tb_chip_add(ctrl, ctrl->upsb);
		pci_walk_bus(ctrl->upsb->subordinate, tb_chip_one, ctrl);
	}
	n = ctrl->nchip;
	mutex_unlock(&ctrl->lock);
	if (n)
		dev_dbg(dev, "copied the config space of %u functions of the chip before its NHI puts it to sleep\n",
			n);
	return 0;
}

/*
 * Put the copies in place of what the devices hold saved and, with
 * @restore, write them to the devices too, in the order taken (top-down).
 * The same devices, their capabilities the same: nothing to fail.
 * Return: how many (ctrl->lock held).
 */
static unsigned int tb_chip_load(struct tb_ctrl *ctrl, bool restore)
{
	unsigned int i;

	for (i = 0; i < ctrl->nchip; i++) {
		pci_load_saved_state(ctrl->chip[i], ctrl->chip_state[i]);
		if (restore)
			pci_restore_state(ctrl->chip[i]);
	}
	ctrl->chip_loaded = true;
	return ctrl->nchip;
}

static int tb_ctrl_suspend_noirq(struct device *dev)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	unsigned int n;

	mutex_lock(&ctrl->lock);
	n = tb_chip_load(ctrl, false);
	mutex_unlock(&ctrl->lock);
	if (n)
		dev_dbg(dev, "put the copies of %u functions of the chip in place of what the noirq phase saved\n",
			n);
	return 0;
}

/*
 * A sleep aborted in the noirq phase before this switch's turn: the PM
 * core has restored what the chip's functions saved there, all-ones if
 * the NHI had put the chip to sleep by then. Write the copies back, the
 * upstream port first (they were taken top-down).
 */
static int tb_ctrl_resume_early(struct device *dev)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	unsigned int n = 0;

	mutex_lock(&ctrl->lock);
	if (!ctrl->chip_loaded)
		n = tb_chip_load(ctrl, true);
	mutex_unlock(&ctrl->lock);
	if (n)
		dev_dbg(dev, "sleep aborted before the copies were put in place: wrote back the config space of %u functions of the chip\n",
			n);
	return 0;
}

static int tb_ctrl_resume_noirq(struct device *dev)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	int ret = 0;

	mutex_lock(&ctrl->lock);
	/* the mechanism powers up (and says so) before the upstream port's turn */
	if (ctrl->sleep_off && ctrl->off) {
		ret = ctrl->ops->resume_noirq(ctrl);
		if (!ret) {
			tb_account(ctrl);
			ctrl->off = false;
			pm_runtime_set_active(dev);
			if (!ctrl->dying)
				tb_ctrl_settle(ctrl);
		}
	}
	mutex_unlock(&ctrl->lock);
	/* a fault here must not block the system's resume */
	if (ret)
		dev_err(dev, "power-up after system sleep failed: %pe\n", ERR_PTR(ret));
	return 0;
}

/*
 * Still off here: the sleep was aborted before the noirq phase (or the
 * power-up in resume_noirq failed), and the ports' resume comes next.
 */
static int tb_ctrl_resume(struct device *dev)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	bool off;
	int ret;

	mutex_lock(&ctrl->lock);
	off = ctrl->sleep_off && ctrl->off;
	mutex_unlock(&ctrl->lock);
	if (!off)
		return 0;
	/* runtime PM is enabled again in this phase: power up through it */
	ret = pm_runtime_resume(dev);
	if (ret < 0)
		dev_err(dev, "power-up after system sleep failed: %pe\n", ERR_PTR(ret));
	return 0;
}

static void tb_ctrl_complete(struct device *dev)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);

	mutex_lock(&ctrl->lock);
	/* still off (nothing resumed the ports): listen for plugs again */
	if (ctrl->off)
		tb_arm(ctrl);
	ctrl->sleep_off = false;
	ctrl->in_sleep = false;
	tb_chip_release(ctrl);
	/* a plug heard during the transition: look at it now */
	if (ctrl->plug_in_sleep && !ctrl->dying)
		schedule_work(&ctrl->look_work);
	ctrl->plug_in_sleep = false;
	mutex_unlock(&ctrl->lock);
}

/* The power switch's: system sleep here, runtime PM in tb_power.c. */
const struct dev_pm_ops tb_ctrl_pm_ops = {
	.prepare	= tb_ctrl_prepare,
	.complete	= tb_ctrl_complete,
	/* hibernation's power-off sleeps the chip (nhi_poweroff_noirq()) too */
	.suspend_late	= tb_ctrl_suspend_late,
	.suspend_noirq	= tb_ctrl_suspend_noirq,
	.resume_early	= tb_ctrl_resume_early,
	.poweroff_late	= tb_ctrl_suspend_late,
	.poweroff_noirq	= tb_ctrl_suspend_noirq,
	.restore_early	= tb_ctrl_resume_early,
	.resume		= tb_ctrl_resume,
	.resume_noirq	= tb_ctrl_resume_noirq,
	SET_RUNTIME_PM_OPS(tb_ctrl_runtime_suspend, tb_ctrl_runtime_resume, NULL)
};
