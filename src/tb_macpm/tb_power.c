// SPDX-License-Identifier: GPL-2.0
/*
 * tb_macpm - the power switch of one Thunderbolt controller
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/pm_runtime.h>
#include <linux/sysfs.h>
#include <linux/wait.h>

#include "tb_macpm.h"

/* macOS polls XRIL up to 300 times, 1 ms apart, after XRPE(0). */
#define TB_OFF_POLL_MS		300
/* How long the upstream port may take to answer after XRPE(1). */
#define TB_LINK_WAIT_MS		2000
/* More spurious GPEs than this within TB_STORM_WINDOW_MS: a storm. */
#define TB_STORM_MAX		10
#define TB_STORM_WINDOW_MS	10000
/* A spurious GPE is re-enabled after this long. */
#define TB_REARM_MS		100
/* Refused power-downs in a row before the controller is left on. */
#define TB_MAX_REFUSALS		5
/*
 * After a failed power-up the plug GPE is armed again this much later, so
 * that the next plug tries again; after TB_MAX_UP_FAILURES in a row it is
 * not, and only an explicit resume (or a reload) tries again.
 */
#define TB_UP_RETRY_MS		1000
#define TB_MAX_UP_FAILURES	5
/* How long after a power-up the devices below it are told to idle again. */
#define TB_SETTLE_MS		2000

/* Why it stays on after TB_MAX_REFUSALS; cleared by writing power_down. */
#define TB_REFUSED_REASON	"the firmware refused to power it down (XRIL) several times in a row: something is plugged in that no driver sees; write 1 to tb_macpm.power_down to try again"
static const char tb_refused_reason[] = TB_REFUSED_REASON;
/* Alpine Ridge's level plug GPE in a storm; cleared by writing power_down. */
#define TB_STORM_REASON "its level-triggered plug GPE fires again and again (a storm): the firmware's method does not clear it; write 1 to tb_macpm.power_down to try again"
static const char tb_storm_reason[] = TB_STORM_REASON;
/* Thunderbolt 3, while the root port may not runtime-suspend */
#define TB_RP_NO_SUSPEND_REASON	"its root port may not runtime-suspend, so the firmware's _PS3 would not cut the power"

static struct tb_ctrl *tb_ctrl_from_dev(struct device *dev)
{
	return container_of(dev, struct tb_ctrl, dev);
}

/* Account the time spent in the state that ends now (ctrl->lock held). */
static void tb_account(struct tb_ctrl *ctrl)
{
	ktime_t now = ktime_get();
	u64 d = ktime_to_ns(ktime_sub(now, ctrl->since));

	if (ctrl->off)
		ctrl->off_ns += d;
	else
		ctrl->on_ns += d;
	ctrl->since = now;
}

/* XRPE(@on) or TRPE(@on[, 0]): switch the controller's power. */
static int tb_set_power(struct tb_ctrl *ctrl, bool on)
{
	union acpi_object args[2] = {
		{ .integer = { .type = ACPI_TYPE_INTEGER, .value = on } },
		{ .integer = { .type = ACPI_TYPE_INTEGER, .value = 0 } },
	};
	struct acpi_object_list list = { ctrl->set_args, args };
	acpi_status status;

	dev_dbg(&ctrl->dev, "%s(%d)\n", ctrl->set_method, on);
	status = acpi_evaluate_object(ctrl->handle, (char *)ctrl->set_method, &list, NULL);
	if (ACPI_FAILURE(status)) {
		ctrl->errors++;
		dev_err_ratelimited(&ctrl->dev, "%s(%d) failed: %s\n", ctrl->set_method, on,
				    acpi_format_exception(status));
		return -EIO;
	}
	return 0;
}

/* XRIL: 1 once the controller is off with nothing plugged in. */
static int tb_xril(struct tb_ctrl *ctrl)
{
	unsigned long long v;

	if (ACPI_FAILURE(acpi_evaluate_integer(ctrl->handle, "XRIL", NULL, &v)))
		return -EIO;
	return v ? 1 : 0;
}

/* RTPC(@on) on @handle: a Thunderbolt 3 vote (1: keep powered, 0: may cut). */
static int tb_rtpc(struct tb_ctrl *ctrl, acpi_handle handle, bool on)
{
	acpi_status status;

	status = acpi_execute_simple_method(handle, "RTPC", on);
	if (ACPI_FAILURE(status)) {
		ctrl->errors++;
		dev_err_ratelimited(&ctrl->dev, "RTPC(%d) failed: %s\n", on,
				    acpi_format_exception(status));
		return -EIO;
	}
	return 0;
}

/*
 * The NHI's and the xHCI's votes. With both at 0 the root port's _PS3 cuts
 * the power when the PCI core suspends the port (after everything below it
 * and this switch); with either at 1 it does not, and the upstream port's
 * _PS0 powers the controller up whatever they are.
 */
static int tb_vote(struct tb_ctrl *ctrl, bool on)
{
	int ret;

	dev_dbg(&ctrl->dev, "RTPC(%d)\n", on);
	ret = tb_rtpc(ctrl, ctrl->handle, on);

	if (ctrl->xhci && tb_rtpc(ctrl, ctrl->xhci, on))
		ret = -EIO;
	return ret;
}

/* Listen for plugs (ctrl->lock held): enable the GPE, or take the notify. */
static int tb_arm(struct tb_ctrl *ctrl)
{
	acpi_status status;

	if (ctrl->armed)
		return 0;
	if (ctrl->has_gpe) {
		status = acpi_enable_gpe(NULL, ctrl->gpe);
		if (ACPI_FAILURE(status)) {
			dev_err(&ctrl->dev, "cannot enable GPE 0x%02x: %s\n", ctrl->gpe,
				acpi_format_exception(status));
			return -EIO;
		}
	} else if (!ctrl->has_notify && !ctrl->own_gpe) {
		return -ENODEV;
	} else if (ctrl->has_notify && ctrl->plug_gpe) {
		/*
		 * The GPE whose firmware method notifies the NHI: ACPICA
		 * enables such a GPE at boot only if no _PRW names it and
		 * acpi_mask_gpe= does not; take a reference of our own.
		 */
		status = acpi_enable_gpe(NULL, ctrl->plug_gpe);
		if (ACPI_SUCCESS(status)) {
			ctrl->plug_gpe_on = true;
		} else if (!ctrl->plug_gpe_warned) {
			ctrl->plug_gpe_warned = true;
			dev_warn(&ctrl->dev,
				 "cannot enable GPE 0x%02x: %s; plugs are heard only if the firmware enabled it\n",
				 ctrl->plug_gpe, acpi_format_exception(status));
		}
	}
	ctrl->armed = true;
	return 0;
}

static int tb_mark_d3cold(struct pci_dev *pdev, void *unused)
{
	/*
	 * What pci_bus_set_current_state() does (not exported): the devices
	 * lost power, so their next resume restores them from D3cold; and
	 * the PCI core leaves a device in D3cold that no platform method
	 * manages asleep across system sleep (pci_target_state()).
	 */
	pdev->current_state = PCI_D3cold;
	return 0;
}

/* A device router or an XDomain peer, by thunderbolt.ko's device types. */
static int tb_match_connection(struct device *dev, void *unused)
{
	const char *type = dev->type ? dev->type->name : NULL;

	return type && (!strcmp(type, "thunderbolt_device") ||
			!strcmp(type, "thunderbolt_xdomain"));
}

/*
 * Whether a device router or XDomain peer hangs below the root switch.
 * thunderbolt.ko of 6.1 lets Thunderbolt 2+ device routers runtime-suspend
 * while connected, so a suspended NHI does not mean "nothing connected".
 * Not any child: tb_switch_add() enables wakeup of the root switch, and its
 * wakeup source is a child device of it ("wakeupN", class wakeup).
 */
static bool tb_connected(struct tb_ctrl *ctrl)
{
	struct device *child;

	if (!ctrl->rsw)
		return false;
	child = device_find_child(ctrl->rsw, NULL, tb_match_connection);
	put_device(child);
	return child;
}

/* Why the controller must stay powered right now (ctrl->lock held). */
static const char *tb_blocker(struct tb_ctrl *ctrl)
{
	if (ctrl->stay_on)
		return ctrl->stay_on;
	if (ctrl->plug_storm)
		return tb_storm_reason;
	if (!tb_power_down)
		return "power-down disabled (tb_macpm.power_down=0)";
	if (ctrl->dying)
		return "unbinding";
	if (tb_connected(ctrl))
		return "a Thunderbolt device or peer is connected";
	/*
	 * Thunderbolt 3: the firmware's _PS3 cuts the power only if the PCI
	 * core runtime-suspends the root port, which it does not with D3
	 * ruled out for it (bridge_d3) or its runtime PM forbidden.
	 */
	if (ctrl->votes && (!ctrl->rp->bridge_d3 || !ctrl->rp->dev.power.runtime_auto))
		return TB_RP_NO_SUSPEND_REASON;
	return NULL;
}

/*
 * Thunderbolt 3: give the votes back and listen for plugs. The power goes
 * when the PCI core suspends the root port next, in its _PS3. A plug that
 * came while the NHI was suspended and this switch not yet off was heard
 * all the same: the notify handler takes a plug whenever it comes (see
 * tb_gpe_work()), and the ports it holds keep the chain from suspending.
 * As on Thunderbolt 1 and 2, the devices below are marked D3cold, so that
 * the PCI core restores and resumes all of them with the upstream port
 * (pci_pm_bridge_power_up_actions()), the xHCI and its port included: the
 * root port has no _PR3, so the PCI core itself only knows of D3hot.
 */
static int tb_votes_off(struct tb_ctrl *ctrl)
{
	if (tb_vote(ctrl, false)) {
		ctrl->stay_on = "its power vote (RTPC) failed";
		tb_vote(ctrl, true);
		return -EBUSY;
	}
	if (tb_arm(ctrl)) {
		ctrl->stay_on = "its plug notification cannot be armed";
		tb_vote(ctrl, true);
		return -EBUSY;
	}
	pci_walk_bus(ctrl->upsb->subordinate, tb_mark_d3cold, NULL);
	tb_mark_d3cold(ctrl->upsb, NULL);
	return 0;
}

/*
 * After XRPE(0)/TRPE(0): wait up to TB_OFF_POLL_MS for XRIL to report the
 * controller off with nothing plugged in. Return: true if it did not; the
 * controller is then powered up again and looked at as after a plug.
 */
static bool tb_refused(struct tb_ctrl *ctrl)
{
	ktime_t deadline = ktime_add_ms(ktime_get(), TB_OFF_POLL_MS);
	int xril;

	for (;;) {
		bool late = ktime_after(ktime_get(), deadline);

		xril = tb_xril(ctrl);
		if (xril == 1 || late)
			break;
		usleep_range(1000, 1200);
	}
	if (xril == 1) {
		ctrl->refused_in_row = 0;
		return false;
	}
	/*
	 * Something is plugged in (gen1's XRIL is the plug level) that kept
	 * nothing resumed: a device router that runtime-suspended under
	 * thunderbolt.ko, or a plug that came while the NHI was suspended and
	 * the GPE not armed. Power up and treat it as a plug, so that the NHI
	 * and the ports look at what is there; a later idle tries again. Only
	 * a run of refusals leaves the controller on.
	 */
	ctrl->refusals++;
	ctrl->refused_in_row++;
	dev_warn(&ctrl->dev, "%s(0): XRIL still %s after %d ms: powered up again, looking for a plugged device (%u in a row)\n",
		 ctrl->set_method, xril < 0 ? "fails" : "reports it on or plugged",
		 TB_OFF_POLL_MS, ctrl->refused_in_row);
	if (ctrl->refused_in_row >= TB_MAX_REFUSALS)
		ctrl->stay_on = tb_refused_reason;
	tb_set_power(ctrl, true);
	ctrl->wake_req = ktime_get();
	schedule_work(&ctrl->look_work);
	return true;
}

static int tb_power_off(struct tb_ctrl *ctrl)
{
	if (ctrl->votes)
		return tb_votes_off(ctrl);

	/* -EBUSY, not an error: an error would stop runtime PM of the switch */
	if (tb_set_power(ctrl, false)) {
		ctrl->stay_on = "its power-down method failed";
		tb_set_power(ctrl, true);
		return -EBUSY;
	}

	/*
	 * Thunderbolt 3 through TRPE (MacPro7,1) has no XRIL to ask: nothing
	 * plugged is what the switch's suspend has just checked (no device
	 * router or peer below the root switch, the NHI and every port
	 * suspended), and a plug from now on is heard, for the notify is
	 * taken whenever it comes (tb_gpe_work()).
	 */
	if (ctrl->has_xril && tb_refused(ctrl))
		return -EBUSY;

	if (tb_arm(ctrl)) {
		ctrl->stay_on = "its plug GPE cannot be enabled";
		tb_set_power(ctrl, true);
		return -EBUSY;
	}

	pci_walk_bus(ctrl->upsb->subordinate, tb_mark_d3cold, NULL);
	tb_mark_d3cold(ctrl->upsb, NULL);
	return 0;
}

static void tb_disarm(struct tb_ctrl *ctrl)
{
	if (!ctrl->armed)
		return;
	if (ctrl->has_gpe)
		acpi_disable_gpe(NULL, ctrl->gpe);
	/* Alpine Ridge's stays enabled: its method must see every plug and unplug */
	if (ctrl->plug_gpe_on && ctrl->has_notify) {
		acpi_disable_gpe(NULL, ctrl->plug_gpe);
		ctrl->plug_gpe_on = false;
	}
	ctrl->armed = false;
}

/*
 * Power the controller and wait until its upstream port answers (Thunderbolt
 * 1 and 2); on Thunderbolt 3 give the votes back only (see below).
 */
static int tb_power_on(struct tb_ctrl *ctrl)
{
	ktime_t deadline;
	bool alive;
	int ret;

	tb_disarm(ctrl);
	/*
	 * Thunderbolt 3: the votes back, so that no _PS3 of the root port
	 * cuts a controller in use; the upstream port's _PS0, which the PCI
	 * core runs right after this (its supplier), powers it up and waits
	 * for the link.
	 */
	if (ctrl->votes) {
		tb_vote(ctrl, true);
		return 0;
	}
	ret = tb_set_power(ctrl, true);
	if (ret) {
		ctrl->up_failed_in_row++;
		schedule_work(&ctrl->recover_work);
		return ret;
	}

	deadline = ktime_add_ms(ktime_get(), TB_LINK_WAIT_MS);
	for (;;) {
		bool late = ktime_after(ktime_get(), deadline);

		alive = pci_device_is_present(ctrl->upsb);
		if (alive || late)
			break;
		usleep_range(2000, 2500);
	}
	if (!alive) {
		ctrl->errors++;
		ctrl->stay_on = "it did not come back after power-up";
		dev_err(&ctrl->dev, "upstream port %s does not answer %d ms after %s(1)\n",
			pci_name(ctrl->upsb), TB_LINK_WAIT_MS, ctrl->set_method);
		ctrl->up_failed_in_row++;
		schedule_work(&ctrl->recover_work);
		return -EIO;
	}
	ctrl->up_failed_in_row = 0;
	return 0;
}

/*
 * Ask every port of the controller to idle: see tb_ctrl_nudge(). The PM
 * core only does something where nothing holds the port and it has no
 * active child.
 */
static int tb_nudge_one(struct pci_dev *pdev, void *unused)
{
	if (pci_is_bridge(pdev))
		pm_request_idle(&pdev->dev);
	return 0;
}

/**
 * tb_ctrl_nudge() - let devices idle whose idle notification was lost
 * @ctrl: the controller
 *
 * Powering the upstream port up from D3cold makes the PCI core request a
 * resume of every device below it (pci_resume_bus(), asynchronous). A
 * child that suspends again at once (a device without a driver) notifies
 * its parent port while the port's own resume request is still pending;
 * the PM core drops that notification, and the request then finds the
 * port active and does nothing more: the port, and with it the whole
 * chain, stays active with no active child, and the controller on for
 * good (rpm_idle() returns -EAGAIN while a resume request is pending, and
 * rpm_resume() of an active device sends no idle notification). An idle
 * request to every port once things have settled undoes that, and costs
 * nothing where something is in use: a stop-gap for what the PM core or
 * pci_resume_bus() could do themselves. Done a while after
 * each power-up and after a controller is taken (one left that way
 * before), from a work item: pci_walk_bus() takes pci_bus_sem.
 */
static void tb_ctrl_nudge(struct tb_ctrl *ctrl)
{
	pci_walk_bus(ctrl->upsb->subordinate, tb_nudge_one, NULL);
	pm_request_idle(&ctrl->upsb->dev);
}

static void tb_settle_work(struct work_struct *work)
{
	struct tb_ctrl *ctrl = container_of(to_delayed_work(work), struct tb_ctrl, settle_work);

	tb_ctrl_nudge(ctrl);
}

/* tb_ctrl_nudge() a while from now (not under the caller's locks). */
void tb_ctrl_settle(struct tb_ctrl *ctrl)
{
	mod_delayed_work(system_wq, &ctrl->settle_work, msecs_to_jiffies(TB_SETTLE_MS));
}

static int tb_ctrl_runtime_suspend(struct device *dev)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	int ret;

	mutex_lock(&ctrl->lock);
	if (tb_blocker(ctrl)) {
		ret = -EBUSY;
		goto out;
	}
	ret = tb_power_off(ctrl);
	if (!ret) {
		tb_account(ctrl);
		ctrl->off = true;
		ctrl->cycles++;
		ctrl->wake_start = 0;
		dev_dbg(dev, "powered off\n");
	}
out:
	mutex_unlock(&ctrl->lock);
	return ret;
}

static int tb_ctrl_runtime_resume(struct device *dev)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	ktime_t start = ktime_get();
	int ret;

	mutex_lock(&ctrl->lock);
	ret = tb_power_on(ctrl);
	if (!ret) {
		tb_account(ctrl);
		ctrl->off = false;
		if (ctrl->wake_req)
			start = ctrl->wake_req;
		/*
		 * Thunderbolt 3: the power comes with the upstream port's
		 * _PS0, after this; a plug's wake is timed once the NHI is
		 * resumed (tb_hold_ports()).
		 */
		if (ctrl->votes) {
			/* timed for a plug only (0 otherwise) */
			ctrl->wake_start = ctrl->wake_req;
		} else {
			ctrl->last_wake_ms = ktime_ms_delta(ktime_get(), start);
			dev_dbg(dev, "powered on in %u ms\n", ctrl->last_wake_ms);
		}
		ctrl->wake_req = 0;
		if (!ctrl->dying)
			tb_ctrl_settle(ctrl);
	}
	mutex_unlock(&ctrl->lock);
	return ret;
}

/*
 * System sleep. What the PM and PCI cores of 6.1 do to a controller that is
 * off when sleep begins is not ours to change (nor should a PM domain or
 * similar trick override it):
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
static void tb_chip_release(struct tb_ctrl *ctrl)
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
	ktime_t start = ktime_get();
	int ret = 0;

	mutex_lock(&ctrl->lock);
	if (ctrl->sleep_off && ctrl->off) {
		if (!ctrl->votes)
			tb_set_power(ctrl, false);
		ret = tb_power_on(ctrl);
		if (!ret) {
			tb_account(ctrl);
			ctrl->off = false;
			pm_runtime_set_active(dev);
			if (!ctrl->dying)
				tb_ctrl_settle(ctrl);
			dev_dbg(dev, "%s in %lld ms before the upstream port's resume_noirq\n",
				ctrl->votes ? "votes given back" : "switch reset, powered on",
				ktime_ms_delta(ktime_get(), start));
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

static const struct dev_pm_ops tb_ctrl_pm_ops = {
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

/*
 * Power switch devices not yet released. Their release and their device
 * type are this module's, and the driver core may release them long after
 * they were unregistered: a device link drops its reference from a
 * workqueue, and CONFIG_DEBUG_KOBJECT_RELEASE delays every release by
 * seconds. Module exit waits for the last one (tb_ctrl_wait_released()).
 */
static atomic_t tb_ctrl_devs = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(tb_ctrl_devs_wq);

static void tb_ctrl_release(struct device *dev)
{
	kfree(tb_ctrl_from_dev(dev));
	if (atomic_dec_and_test(&tb_ctrl_devs))
		wake_up(&tb_ctrl_devs_wq);
}

/* Before the first put_device() of a switch: counted until its release. */
void tb_ctrl_count_dev(void)
{
	atomic_inc(&tb_ctrl_devs);
}

/* Module exit: wait until every switch device is released. */
void tb_ctrl_wait_released(void)
{
	wait_event(tb_ctrl_devs_wq, !atomic_read(&tb_ctrl_devs));
}

const struct device_type tb_ctrl_type = {
	.name		= "tb_macpm",
	.pm		= &tb_ctrl_pm_ops,
	.release	= tb_ctrl_release,
};

/*
 * After a plug, resume the NHI and the hotplug ports and keep them resumed
 * for tb_macpm.plug_hold_ms: resuming the NHI powers the controller (the PM
 * core resumes the power switch before the upstream port) and lets
 * thunderbolt.ko find what was plugged in; the ports' pciehp then sees the
 * link of a tunnel come up even where a port in D3 could not signal it.
 */
static void tb_hold_ports(struct tb_ctrl *ctrl)
{
	unsigned int i;

	mutex_lock(&ctrl->lock);
	if (ctrl->dying) {
		mutex_unlock(&ctrl->lock);
		return;
	}
	/* a later plug within the hold extends it */
	ctrl->hold_until = ktime_add_ms(ktime_get(), tb_plug_hold_ms);
	if (ctrl->held) {
		mutex_unlock(&ctrl->lock);
		mod_delayed_work(system_wq, &ctrl->hold_work, msecs_to_jiffies(tb_plug_hold_ms));
		return;
	}
	ctrl->held = true;
	mutex_unlock(&ctrl->lock);
	pm_runtime_get_sync(&ctrl->nhi->dev);
	/* Thunderbolt 3: powered up for this plug, and the NHI usable */
	mutex_lock(&ctrl->lock);
	if (ctrl->wake_start) {
		ctrl->last_wake_ms = ktime_ms_delta(ktime_get(), ctrl->wake_start);
		ctrl->wake_start = 0;
		dev_dbg(&ctrl->dev, "powered on, NHI resumed, %u ms after the plug\n",
			ctrl->last_wake_ms);
	}
	mutex_unlock(&ctrl->lock);
	for (i = 0; i < ctrl->ndsb; i++)
		pm_runtime_get_sync(&ctrl->dsb[i]->dev);
	schedule_delayed_work(&ctrl->hold_work, msecs_to_jiffies(tb_plug_hold_ms));
}

/*
 * Let the NHI and the ports go: once the hold has run out (@force: now,
 * the controller is being released).
 */
static void tb_release_ports(struct tb_ctrl *ctrl, bool force)
{
	s64 left;
	unsigned int i;

	mutex_lock(&ctrl->lock);
	if (!ctrl->held) {
		mutex_unlock(&ctrl->lock);
		return;
	}
	left = ktime_ms_delta(ctrl->hold_until, ktime_get());
	if (!force && left > 0) {
		/* extended by a plug after this work was queued */
		mutex_unlock(&ctrl->lock);
		schedule_delayed_work(&ctrl->hold_work, msecs_to_jiffies(left));
		return;
	}
	ctrl->held = false;
	mutex_unlock(&ctrl->lock);
	for (i = 0; i < ctrl->ndsb; i++) {
		pm_runtime_mark_last_busy(&ctrl->dsb[i]->dev);
		pm_runtime_put_autosuspend(&ctrl->dsb[i]->dev);
	}
	pm_runtime_mark_last_busy(&ctrl->nhi->dev);
	pm_runtime_put_autosuspend(&ctrl->nhi->dev);
}

static void tb_hold_work(struct work_struct *work)
{
	tb_release_ports(container_of(to_delayed_work(work), struct tb_ctrl, hold_work), false);
}

/*
 * A failed power-up fails the resume of the upstream port that needed it,
 * and the PM core keeps that error (power.runtime_error) on the port and on
 * the switch: every later resume of either would fail at once without
 * calling anyone, until reboot. Once the failed resume is over (both are
 * suspended), clear it, so that the next resume tries the power-up again.
 */
static void tb_recover_work(struct work_struct *work)
{
	struct tb_ctrl *ctrl = container_of(work, struct tb_ctrl, recover_work);
	struct device *devs[] = { &ctrl->upsb->dev, &ctrl->dev };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(devs); i++) {
		pm_runtime_barrier(devs[i]);
		if (devs[i]->power.runtime_error && pm_runtime_status_suspended(devs[i]))
			pm_runtime_set_suspended(devs[i]);
	}

	/* still off, with the GPE disarmed by the attempt: watch for plugs again */
	mutex_lock(&ctrl->lock);
	if (ctrl->off && !ctrl->armed && (ctrl->has_gpe || ctrl->has_notify || ctrl->own_gpe) &&
	    !ctrl->dying) {
		if (ctrl->up_failed_in_row < TB_MAX_UP_FAILURES)
			schedule_delayed_work(&ctrl->rearm_work, msecs_to_jiffies(TB_UP_RETRY_MS));
		else
			dev_err(&ctrl->dev, "%u power-ups in a row failed: plugs are no longer watched; reload tb_macpm to try again\n",
				ctrl->up_failed_in_row);
	}
	mutex_unlock(&ctrl->lock);
}

/*
 * A refused power-down, a plug that came during system sleep, or Alpine
 * Ridge's plug GPE (whose work must not wait for a power-up: the next GPE
 * waits for it): look for what is plugged in, as after a plug.
 */
static void tb_look_work(struct work_struct *work)
{
	tb_hold_ports(container_of(work, struct tb_ctrl, look_work));
}

/*
 * The plug GPE. Runs in interrupt context: the GPE stays disabled (no
 * ACPI_REENABLE_GPE) until the work has looked at it.
 */
static u32 tb_gpe_handler(acpi_handle gpe_device, u32 gpe, void *data)
{
	struct tb_ctrl *ctrl = data;

	WRITE_ONCE(ctrl->gpe_time, ktime_get());
	/* the work runs AML: on CPU 0, as ACPICA runs GPE methods (osl.c) */
	queue_work_on(0, system_wq, &ctrl->gpe_work);
	return ACPI_INTERRUPT_HANDLED;
}

/*
 * Count a GPE that was not a plug (TB1/2: XRIL says nothing is plugged) or,
 * for Alpine Ridge's level GPE, any GPE, in bursts of TB_STORM_WINDOW_MS.
 * Return: true if this one makes the burst a storm (ctrl->lock held).
 */
static bool tb_storm(struct tb_ctrl *ctrl, ktime_t now)
{
	if (!ctrl->storm_count || ktime_ms_delta(now, ctrl->storm_start) > TB_STORM_WINDOW_MS) {
		ctrl->storm_start = now;
		ctrl->storm_count = 0;
	}
	return ++ctrl->storm_count > TB_STORM_MAX;
}

static void tb_gpe_work(struct work_struct *work)
{
	struct tb_ctrl *ctrl = container_of(work, struct tb_ctrl, gpe_work);
	ktime_t now = READ_ONCE(ctrl->gpe_time);
	bool storm = false;

	mutex_lock(&ctrl->lock);
	/*
	 * A GPE is handled only while armed (it is enabled only then); a
	 * notify whenever it comes, outside system sleep: one that comes
	 * while the controller is still on (the NHI suspended, the switch
	 * not yet off) holds the ports, so that what was plugged is looked
	 * at before anything is cut.
	 */
	if (ctrl->dying || (!ctrl->armed && !ctrl->has_notify)) {
		mutex_unlock(&ctrl->lock);
		return;
	}
	/* during system sleep: once it is over (complete) */
	if (ctrl->has_notify && ctrl->in_sleep) {
		ctrl->plug_in_sleep = true;
		mutex_unlock(&ctrl->lock);
		return;
	}
	/* XRIL still "off, nothing plugged": not a plug */
	if (ctrl->off && ctrl->has_xril && tb_xril(ctrl) == 1) {
		ctrl->spurious++;
		if (tb_storm(ctrl, now)) {
			storm = true;
			ctrl->stay_on =
				"its plug GPE fires while nothing is plugged in (GPE storm)";
			dev_warn(&ctrl->dev, "GPE 0x%02x fired %u times in %d ms with nothing plugged in: the controller stays powered\n",
				 ctrl->gpe, ctrl->storm_count, TB_STORM_WINDOW_MS);
		} else {
			schedule_delayed_work(&ctrl->rearm_work, msecs_to_jiffies(TB_REARM_MS));
		}
		mutex_unlock(&ctrl->lock);
		if (storm)
			pm_runtime_resume(&ctrl->dev);
		return;
	}
	if (ctrl->off) {
		ctrl->gpe_wakes++;
		ctrl->wake_req = now;
	}
	mutex_unlock(&ctrl->lock);
	dev_dbg(&ctrl->dev, "plug: holding the NHI and the ports resumed\n");
	tb_hold_ports(ctrl);
}

/*
 * Titan Ridge: the firmware's plug GPE method notifies the NHI (Bus Check;
 * Device Check from its DisplayPort GPEs on some Macs). Runs in ACPI's
 * notify context; the work decides as for a GPE.
 */
static void tb_notify(acpi_handle handle, u32 event, void *data)
{
	struct tb_ctrl *ctrl = data;

	if (event != ACPI_NOTIFY_BUS_CHECK && event != ACPI_NOTIFY_DEVICE_CHECK)
		return;
	WRITE_ONCE(ctrl->gpe_time, ktime_get());
	schedule_work(&ctrl->gpe_work);
}

/* Power the controller up and keep it so: stay_on has just been set. */
static void tb_request_on(struct tb_ctrl *ctrl)
{
	/* Thunderbolt 3: the power comes with the upstream port's _PS0 */
	if (ctrl->votes)
		pm_request_resume(&ctrl->upsb->dev);
	else
		pm_request_resume(&ctrl->dev);
}

/*
 * Alpine Ridge's level-triggered plug GPE (see the overview in tb_core.c).
 * The GPE stays disabled from the handler until acpi_finish_gpe(): first
 * the firmware's own method, which flips the plug pad's RX inversion so
 * that the level drops (Apple's _Lxx does that and nothing else under
 * Darwin), then the GPE is cleared and enabled again. A plug or an unplug
 * looks the same here: either way the NHI and the ports are held resumed
 * for a while, and with nothing there the controller goes off again.
 */
static void tb_level_gpe_work(struct work_struct *work)
{
	struct tb_ctrl *ctrl = container_of(work, struct tb_ctrl, gpe_work);
	ktime_t now = READ_ONCE(ctrl->gpe_time);
	acpi_status status;

	mutex_lock(&ctrl->lock);
	/*
	 * Being released: the GPE stays as the handler left it, disabled
	 * with its status set, and the firmware's method, its dispatch
	 * again once the handler is gone, takes it (once).
	 */
	if (ctrl->dying || ctrl->plug_storm) {
		mutex_unlock(&ctrl->lock);
		return;
	}
	status = acpi_evaluate_object(NULL, ctrl->plug_method, NULL, NULL);
	if (ACPI_FAILURE(status)) {
		ctrl->errors++;
		dev_err_ratelimited(&ctrl->dev, "%s failed: %s\n", ctrl->plug_method,
				    acpi_format_exception(status));
	}
	if (tb_storm(ctrl, now)) {
		/*
		 * Disabled for good, not only for this dispatch: system
		 * resume enables every GPE that has users again.
		 */
		ctrl->plug_storm = true;
		acpi_disable_gpe(NULL, ctrl->plug_gpe);
		ctrl->plug_gpe_on = false;
		acpi_finish_gpe(NULL, ctrl->plug_gpe);
		mutex_unlock(&ctrl->lock);
		dev_warn(&ctrl->dev, "GPE 0x%02x fired %u times in %d ms: disabled, the controller stays powered\n",
			 ctrl->plug_gpe, TB_STORM_MAX + 1, TB_STORM_WINDOW_MS);
		tb_request_on(ctrl);
		return;
	}
	acpi_finish_gpe(NULL, ctrl->plug_gpe);
	if (ctrl->in_sleep) {
		ctrl->plug_in_sleep = true;
	} else {
		if (ctrl->off) {
			ctrl->gpe_wakes++;
			ctrl->wake_req = now;
		}
		dev_dbg(&ctrl->dev, "plug GPE: holding the NHI and the ports resumed\n");
		schedule_work(&ctrl->look_work);
	}
	mutex_unlock(&ctrl->lock);
}

static void tb_rearm_work(struct work_struct *work)
{
	struct tb_ctrl *ctrl = container_of(to_delayed_work(work), struct tb_ctrl, rearm_work);

	mutex_lock(&ctrl->lock);
	if (ctrl->armed && ctrl->has_gpe && !ctrl->dying)
		acpi_finish_gpe(NULL, ctrl->gpe);
	/* after a failed power-up (tb_recover_work); during sleep, complete does it */
	else if (!ctrl->armed && ctrl->off && !ctrl->dying && !ctrl->stay_on && !ctrl->in_sleep)
		tb_arm(ctrl);
	mutex_unlock(&ctrl->lock);
}

/*
 * The plug GPE's trigger type, as ACPICA has it: edge if the firmware has
 * an _Exx method for it, else level (Macs have no method for XRIN's GPE: a
 * GPIO, level; Alpine Ridge's has an _Lxx). A handler of the other type
 * would make ACPICA warn of the mismatch.
 */
static u32 tb_gpe_type(u32 gpe)
{
	char path[sizeof("\\_GPE._E00")];

	snprintf(path, sizeof(path), "\\_GPE._E%02X", gpe);
	return acpi_has_method(NULL, path) ? ACPI_GPE_EDGE_TRIGGERED : ACPI_GPE_LEVEL_TRIGGERED;
}

int tb_ctrl_power_init(struct tb_ctrl *ctrl)
{
	acpi_status status;

	INIT_WORK(&ctrl->gpe_work, ctrl->own_gpe ? tb_level_gpe_work : tb_gpe_work);
	INIT_DELAYED_WORK(&ctrl->rearm_work, tb_rearm_work);
	INIT_DELAYED_WORK(&ctrl->hold_work, tb_hold_work);
	INIT_DELAYED_WORK(&ctrl->settle_work, tb_settle_work);
	INIT_WORK(&ctrl->look_work, tb_look_work);
	INIT_WORK(&ctrl->recover_work, tb_recover_work);
	if (!ctrl->has_gpe)
		return 0;
	status = acpi_install_gpe_handler(NULL, ctrl->gpe, tb_gpe_type(ctrl->gpe),
					  tb_gpe_handler, ctrl);
	if (ACPI_FAILURE(status)) {
		ctrl->has_gpe = false;
		ctrl->stay_on = "its plug GPE handler cannot be installed";
		dev_err(&ctrl->dev, "cannot install a handler for GPE 0x%02x: %s\n", ctrl->gpe,
			acpi_format_exception(status));
	}
	return 0;
}

/*
 * Thunderbolt 3: listen for plugs, once the controller is set up (its ports
 * linked) and before it may go off. The notify and Alpine Ridge's GPE are
 * handled whenever they come, so not earlier.
 */
void tb_ctrl_power_start(struct tb_ctrl *ctrl)
{
	acpi_status status;

	/*
	 * Kept on for good already (no xHCI vote, _OSI("Darwin") false, ...):
	 * the firmware's method keeps Alpine Ridge's GPE, as without us.
	 */
	if (ctrl->stay_on)
		ctrl->own_gpe = false;
	if (ctrl->has_notify) {
		status = acpi_install_notify_handler(ctrl->handle, ACPI_SYSTEM_NOTIFY, tb_notify,
						     ctrl);
		if (ACPI_FAILURE(status)) {
			ctrl->has_notify = false;
			ctrl->stay_on = "its plug notify handler cannot be installed";
			dev_err(&ctrl->dev, "cannot install a notify handler on the NHI: %s\n",
				acpi_format_exception(status));
		}
	}
	if (ctrl->own_gpe) {
		/*
		 * The handler replaces the firmware's method, and ACPICA
		 * drops the reference it took at boot to enable it: take
		 * one for as long as the handler is there.
		 */
		status = acpi_install_gpe_handler(NULL, ctrl->plug_gpe,
						  tb_gpe_type(ctrl->plug_gpe), tb_gpe_handler,
						  ctrl);
		if (ACPI_FAILURE(status)) {
			ctrl->own_gpe = false;
			ctrl->stay_on = "its plug GPE handler cannot be installed";
			dev_err(&ctrl->dev, "cannot install a handler for GPE 0x%02x: %s\n",
				ctrl->plug_gpe, acpi_format_exception(status));
			return;
		}
		status = acpi_enable_gpe(NULL, ctrl->plug_gpe);
		if (ACPI_SUCCESS(status)) {
			ctrl->plug_gpe_on = true;
		} else {
			/* the firmware's method takes it back */
			acpi_remove_gpe_handler(NULL, ctrl->plug_gpe, tb_gpe_handler);
			ctrl->own_gpe = false;
			ctrl->stay_on = "its plug GPE cannot be enabled";
			dev_err(&ctrl->dev, "cannot enable GPE 0x%02x: %s\n", ctrl->plug_gpe,
				acpi_format_exception(status));
		}
	}
}

/* Called with the controller powered and runtime PM held. */
void tb_ctrl_power_exit(struct tb_ctrl *ctrl)
{
	mutex_lock(&ctrl->lock);
	ctrl->dying = true;
	tb_disarm(ctrl);
	tb_chip_release(ctrl);
	mutex_unlock(&ctrl->lock);
	if (ctrl->has_gpe)
		acpi_remove_gpe_handler(NULL, ctrl->gpe, tb_gpe_handler);
	if (ctrl->own_gpe) {
		/* the firmware's method takes it back, enabled as ACPICA had it */
		if (ctrl->plug_gpe_on)
			acpi_disable_gpe(NULL, ctrl->plug_gpe);
		ctrl->plug_gpe_on = false;
		acpi_remove_gpe_handler(NULL, ctrl->plug_gpe, tb_gpe_handler);
	}
	/* waits for a notify in flight */
	if (ctrl->has_notify)
		acpi_remove_notify_handler(ctrl->handle, ACPI_SYSTEM_NOTIFY, tb_notify);
	cancel_work_sync(&ctrl->gpe_work);
	cancel_work_sync(&ctrl->look_work);
	/* not cancelled: an unbind whose power-up failed leaves no error behind */
	flush_work(&ctrl->recover_work);
	cancel_delayed_work_sync(&ctrl->rearm_work);
	cancel_delayed_work_sync(&ctrl->hold_work);
	cancel_delayed_work_sync(&ctrl->settle_work);
	tb_release_ports(ctrl, true);
}

/* tb_macpm.power_down changed. */
void tb_ctrl_param_changed(struct tb_ctrl *ctrl)
{
	mutex_lock(&ctrl->lock);
	if (ctrl->stay_on == tb_refused_reason) {
		ctrl->stay_on = NULL;
		ctrl->refused_in_row = 0;
	}
	/* Alpine Ridge after a storm: the GPE enabled again */
	if (ctrl->plug_storm && !ctrl->dying) {
		ctrl->plug_storm = false;
		ctrl->storm_count = 0;
		if (ACPI_SUCCESS(acpi_enable_gpe(NULL, ctrl->plug_gpe)))
			ctrl->plug_gpe_on = true;
		else
			dev_err(&ctrl->dev, "cannot enable GPE 0x%02x again\n", ctrl->plug_gpe);
	}
	mutex_unlock(&ctrl->lock);
	if (tb_power_down)
		pm_request_idle(&ctrl->dev);
	else
		tb_request_on(ctrl);
}

static ssize_t power_state_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	bool off;

	mutex_lock(&ctrl->lock);
	off = ctrl->off;
	mutex_unlock(&ctrl->lock);
	return sysfs_emit(buf, "%s\n", off ? "off" : "on");
}
static DEVICE_ATTR_RO(power_state);

static ssize_t tb_show_time(struct device *dev, char *buf, bool want_off)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	u64 ns;

	mutex_lock(&ctrl->lock);
	tb_account(ctrl);
	ns = want_off ? ctrl->off_ns : ctrl->on_ns;
	mutex_unlock(&ctrl->lock);
	return sysfs_emit(buf, "%llu\n", div_u64(ns, NSEC_PER_MSEC));
}

static ssize_t on_ms_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return tb_show_time(dev, buf, false);
}
static DEVICE_ATTR_RO(on_ms);

static ssize_t off_ms_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return tb_show_time(dev, buf, true);
}
static DEVICE_ATTR_RO(off_ms);

/* A read-only attribute @name showing the counter ctrl->@field. */
#define TB_CTRL_UINT_ATTR(name, field)						\
static ssize_t name##_show(struct device *dev, struct device_attribute *attr, char *buf) \
{										\
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);				\
	unsigned int v;								\
										\
	mutex_lock(&ctrl->lock);						\
	v = ctrl->field;							\
	mutex_unlock(&ctrl->lock);						\
	return sysfs_emit(buf, "%u\n", v);					\
}										\
static DEVICE_ATTR_RO(name)

TB_CTRL_UINT_ATTR(power_cycles, cycles);
TB_CTRL_UINT_ATTR(last_wake_ms, last_wake_ms);
TB_CTRL_UINT_ATTR(gpe_wakes, gpe_wakes);
TB_CTRL_UINT_ATTR(spurious, spurious);
TB_CTRL_UINT_ATTR(refusals, refusals);
TB_CTRL_UINT_ATTR(errors, errors);

static ssize_t stay_on_reason_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	const char *why;
	ssize_t ret;

	mutex_lock(&ctrl->lock);
	why = tb_blocker(ctrl);
	/*
	 * Runtime PM of the NHI forbidden: the PCI core's default for an NHI
	 * without a driver (Eagle Ridge: thunderbolt.ko has no alias for it)
	 * until user space writes "auto" to its power/control.
	 */
	if (!why && !ctrl->nhi->dev.power.runtime_auto)
		why = "the NHI's runtime PM is off (its power/control is \"on\")";
	ret = sysfs_emit(buf, "%s\n", why ?: "none");
	mutex_unlock(&ctrl->lock);
	return ret;
}
static DEVICE_ATTR_RO(stay_on_reason);

static ssize_t methods_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", tb_ctrl_from_dev(dev)->methods);
}
static DEVICE_ATTR_RO(methods);

static ssize_t mechanism_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", tb_ctrl_from_dev(dev)->mechanism);
}
static DEVICE_ATTR_RO(mechanism);

static ssize_t plug_source_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", tb_ctrl_from_dev(dev)->plug_source);
}
static DEVICE_ATTR_RO(plug_source);

static ssize_t nhi_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", pci_name(tb_ctrl_from_dev(dev)->nhi));
}
static DEVICE_ATTR_RO(nhi);

static ssize_t generation_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", mac_tb_gen_name(tb_ctrl_from_dev(dev)->gen));
}
static DEVICE_ATTR_RO(generation);

static struct attribute *tb_ctrl_attrs[] = {
	&dev_attr_power_state.attr,
	&dev_attr_on_ms.attr,
	&dev_attr_off_ms.attr,
	&dev_attr_power_cycles.attr,
	&dev_attr_last_wake_ms.attr,
	&dev_attr_stay_on_reason.attr,
	&dev_attr_methods.attr,
	&dev_attr_mechanism.attr,
	&dev_attr_plug_source.attr,
	&dev_attr_nhi.attr,
	&dev_attr_generation.attr,
	&dev_attr_gpe_wakes.attr,
	&dev_attr_spurious.attr,
	&dev_attr_refusals.attr,
	&dev_attr_errors.attr,
	NULL
};

static const struct attribute_group tb_ctrl_group = {
	.attrs = tb_ctrl_attrs,
};

const struct attribute_group *tb_ctrl_groups[] = {
	&tb_ctrl_group,
	NULL
};
