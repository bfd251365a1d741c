// SPDX-License-Identifier: GPL-2.0
/*
 * tb_macpm - the power switch of one Thunderbolt controller
 *
 * The switch device itself: its runtime suspend and resume, which ask the
 * firmware's mechanism (struct tb_mech_ops: tb_xrpe.c, tb_votes.c) to cut
 * and restore the power once nothing blocks; the time accounting; the
 * NHI and the hotplug ports held resumed after a plug; the recovery from
 * a failed power-up and the nudge of ports left active; setup, teardown
 * and release of the device. How a plug is heard is in tb_plug.c, system
 * sleep in tb_sleep.c, the attributes in tb_sysfs.c.
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/pm_runtime.h>
#include <linux/wait.h>

#include "tb_macpm.h"

/*
 * After a failed power-up the plug GPE is armed again this much later, so
 * that the next plug tries again; after TB_MAX_UP_FAILURES in a row it is
 * not, and only an explicit resume (or a reload) tries again.
 */
#define TB_UP_RETRY_MS		1000
#define TB_MAX_UP_FAILURES	5
/* How long after a power-up the devices below it are told to idle again. */
#define TB_SETTLE_MS		2000

/* Alpine Ridge's level plug GPE in a storm; cleared by writing power_down. */
#define TB_STORM_REASON "its level-triggered plug GPE fires again and again (a storm): the firmware's method does not clear it; write 1 to tb_macpm.power_down to try again"
static const char tb_storm_reason[] = TB_STORM_REASON;

/* A power-up that did not come back; cleared by writing power_down. */
#define TB_UP_FAILED_REASON	"it did not come back after power-up; write 1 to tb_macpm.power_down to try again"
const char tb_up_failed_reason[] = TB_UP_FAILED_REASON;

/* See "DisplayPort" in tb_core.c. */
#define TB_DP_REASON	"an external DisplayPort connector is connected (tb_macpm.dp_connected): a monitor in DisplayPort alternate mode on a USB-C port may need the controller powered (not measured on a Mac)"

/* Account the time spent in the state that ends now (ctrl->lock held). */
void tb_account(struct tb_ctrl *ctrl)
{
	ktime_t now = ktime_get();
	u64 d = ktime_to_ns(ktime_sub(now, ctrl->since));

	if (ctrl->off)
		ctrl->off_ns += d;
	else
		ctrl->on_ns += d;
	ctrl->since = now;
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

/*
 * The controller's power is cut (ctrl->lock held): mark the devices below
 * its upstream port and the port itself D3cold.
 */
void tb_ctrl_mark_d3cold(struct tb_ctrl *ctrl)
{
	pci_walk_bus(ctrl->upsb->subordinate, tb_mark_d3cold, NULL);
	tb_mark_d3cold(ctrl->upsb, NULL);
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

/* Alpine and Titan Ridge: the USB-C ports' DisplayPort alternate mode */
static bool tb_ctrl_is_tb3(struct tb_ctrl *ctrl)
{
	return ctrl->gen == MAC_TB_ALPINE_RIDGE || ctrl->gen == MAC_TB_TITAN_RIDGE;
}

/*
 * Why the controller must stay powered right now, whatever its mechanism
 * (ctrl->lock held): what also keeps Thunderbolt 3's votes at 1.
 */
const char *tb_ctrl_blocker(struct tb_ctrl *ctrl)
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
	/* see "DisplayPort" in tb_core.c */
	if (tb_ctrl_is_tb3(ctrl) && READ_ONCE(tb_dp_connected))
		return TB_DP_REASON;
	return NULL;
}

/* ... and why its power switch may not power it down (ctrl->lock held). */
const char *tb_blocker(struct tb_ctrl *ctrl)
{
	const char *why = tb_ctrl_blocker(ctrl);

	if (!why && ctrl->ops->blocker)
		why = ctrl->ops->blocker(ctrl);
	return why;
}

/* Stop listening for plugs and power up (ctrl->lock held). */
int tb_ctrl_power_on(struct tb_ctrl *ctrl)
{
	tb_disarm(ctrl);
	return ctrl->ops->on(ctrl);
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
	/* the root port too, where its _PS3 is what cuts (Thunderbolt 3) */
	if (ctrl->ops->supplies_rp)
		pm_request_idle(&ctrl->rp->dev);
}

/**
 * tb_ctrl_up_failed() - a Thunderbolt 3 power-up did not come back
 * @ctrl: the controller (ctrl->lock held)
 * @what: the device that does not answer, for the log
 *
 * The power comes with the upstream port's _PS0 (power_with_upsb), inside
 * the PCI core's resume of that port, which does not fail when the port
 * stays dead (pci_pm_runtime_resume() ignores it): the devices are asked
 * once they have resumed, by a vote before its function resumes
 * (tb_votes.c), after the NHI resumed for a plug (tb_hold_ports()) and a
 * while after each power-up (tb_ctrl_settle()). As on Thunderbolt 1 and 2
 * (tb_xrpe.c): counted, logged, and the controller stays on with
 * stay_on_reason saying so until tb_macpm.power_down is written; the PM
 * core's errors of the resumes that failed are cleared (recover_work).
 * While it stays so, the upstream port is held resumed: the root port's
 * _PS3 cuts nothing under a switch that says "on", and the port saves no
 * config space that a dead chip read back. What the chip's other
 * functions saved meanwhile may be that: the next power-up starts from
 * the copies taken at the last cut (@up_bad, tb_votes.c). Counted once
 * until then.
 */
void tb_ctrl_up_failed(struct tb_ctrl *ctrl, const char *what)
{
	/* being released: counted, nothing held, no work queued */
	if (ctrl->dying) {
		ctrl->errors++;
		dev_err(&ctrl->dev, "%s does not answer after the power-up\n", what);
		return;
	}
	/* counted already; the resumes that fail meanwhile are cleared too */
	if (!ctrl->up_hold) {
		ctrl->errors++;
		ctrl->up_failed_in_row++;
		ctrl->up_bad = true;
		ctrl->up_hold = true;
		pm_runtime_get_noresume(&ctrl->upsb->dev);
		if (!ctrl->stay_on)
			ctrl->stay_on = tb_up_failed_reason;
		dev_err(&ctrl->dev, "%s does not answer after the power-up (%u in a row): the controller stays on; write 1 to tb_macpm.power_down to try again\n",
			what, ctrl->up_failed_in_row);
	}
	schedule_work(&ctrl->recover_work);
}

/* A Thunderbolt 3 power-up came back: its devices answer (ctrl->lock held). */
void tb_ctrl_up_ok(struct tb_ctrl *ctrl)
{
	if (ctrl->up_hold)
		return;
	ctrl->up_failed_in_row = 0;
	ctrl->up_bad = false;
}

/*
 * Thunderbolt 3, a while after a power-up: whether the upstream port and
 * what is resumed below it (the ports, the NHI, the xHCI) answer. Only
 * while the upstream port is resumed; held meanwhile, so that no cut comes
 * in between.
 */
static void tb_ctrl_check_up(struct tb_ctrl *ctrl)
{
	struct pci_dev *devs[3 + TB_MAX_DSB + 2 * TB_NR_VOTES];
	const char *dead = NULL;
	unsigned int i, n = 0;

	if (macsupport_pm_runtime_get_if_active(&ctrl->upsb->dev) <= 0)
		return;
	devs[n++] = ctrl->upsb;
	devs[n++] = ctrl->dsb0;
	devs[n++] = ctrl->nhi;
	for (i = 0; i < ctrl->ndsb; i++)
		devs[n++] = ctrl->dsb[i];
	for (i = 0; i < TB_NR_VOTES; i++) {
		if (!ctrl->vote[i])
			continue;
		devs[n++] = ctrl->vote[i]->port;
		if (ctrl->vote[i]->fn)
			devs[n++] = ctrl->vote[i]->fn;
	}
	mutex_lock(&ctrl->lock);
	for (i = 0; i < n && !dead; i++) {
		/* resumed (the upstream port is), and held so meanwhile */
		if (i && macsupport_pm_runtime_get_if_active(&devs[i]->dev) <= 0)
			continue;
		if (!pci_device_is_present(devs[i]))
			dead = pci_name(devs[i]);
		if (i)
			pm_runtime_put_noidle(&devs[i]->dev);
	}
	if (dead && !ctrl->dying)
		tb_ctrl_up_failed(ctrl, dead);
	else if (!dead)
		tb_ctrl_up_ok(ctrl);
	mutex_unlock(&ctrl->lock);
	pm_runtime_put(&ctrl->upsb->dev);
}

static void tb_settle_work(struct work_struct *work)
{
	struct tb_ctrl *ctrl = container_of(to_delayed_work(work), struct tb_ctrl, settle_work);

	if (ctrl->ops->power_with_upsb)
		tb_ctrl_check_up(ctrl);
	tb_ctrl_nudge(ctrl);
}

/* tb_ctrl_nudge() a while from now (not under the caller's locks). */
void tb_ctrl_settle(struct tb_ctrl *ctrl)
{
	mod_delayed_work(system_wq, &ctrl->settle_work, msecs_to_jiffies(TB_SETTLE_MS));
}

int tb_ctrl_runtime_suspend(struct device *dev)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	int ret;

	mutex_lock(&ctrl->lock);
	if (tb_blocker(ctrl)) {
		ret = -EBUSY;
		goto out;
	}
	ret = ctrl->ops->off(ctrl);
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

int tb_ctrl_runtime_resume(struct device *dev)
{
	struct tb_ctrl *ctrl = tb_ctrl_from_dev(dev);
	ktime_t start = ktime_get();
	int ret;

	mutex_lock(&ctrl->lock);
	ret = tb_ctrl_power_on(ctrl);
	if (!ret) {
		tb_account(ctrl);
		ctrl->off = false;
		if (ctrl->wake_req)
			start = ctrl->wake_req;
		/*
		 * Thunderbolt 3's votes: the power comes with the upstream
		 * port's _PS0, after this; a plug's wake is timed once the NHI
		 * is resumed (tb_hold_ports()).
		 */
		if (ctrl->ops->power_with_upsb) {
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
 * Power switch and vote devices not yet released. Their release and their
 * device type are this module's, and the driver core may release them long after
 * they were unregistered: a device link drops its reference from a
 * workqueue, and CONFIG_DEBUG_KOBJECT_RELEASE delays every release by
 * seconds. Module exit waits for the last one (tb_ctrl_wait_released()).
 */
static atomic_t tb_ctrl_devs = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(tb_ctrl_devs_wq);

/* A device counted by tb_ctrl_count_dev() was released. */
void tb_dev_released(void)
{
	if (atomic_dec_and_test(&tb_ctrl_devs))
		wake_up(&tb_ctrl_devs_wq);
}

static void tb_ctrl_release(struct device *dev)
{
	kfree(tb_ctrl_from_dev(dev));
	tb_dev_released();
}

/*
 * Before the first put_device() of a switch (or of a vote, tb_votes.c):
 * counted until its release.
 */
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
void tb_hold_ports(struct tb_ctrl *ctrl)
{
	unsigned int i;
	int ret;

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
	ret = pm_runtime_get_sync(&ctrl->nhi->dev);
	/*
	 * Thunderbolt 3: powered up for this plug, and the NHI usable, if
	 * its upstream port and the NHI answer (a resume that failed was
	 * looked at by the vote)
	 */
	mutex_lock(&ctrl->lock);
	if (ctrl->ops->power_with_upsb && ret >= 0 && !ctrl->dying) {
		if (!pci_device_is_present(ctrl->upsb))
			tb_ctrl_up_failed(ctrl, pci_name(ctrl->upsb));
		else if (!pci_device_is_present(ctrl->nhi))
			tb_ctrl_up_failed(ctrl, pci_name(ctrl->nhi));
		else
			tb_ctrl_up_ok(ctrl);
	}
	if (ctrl->wake_start && ret >= 0 && !ctrl->up_hold) {
		ctrl->last_wake_ms = ktime_ms_delta(ktime_get(), ctrl->wake_start);
		dev_dbg(&ctrl->dev, "powered on, NHI resumed, %u ms after the plug\n",
			ctrl->last_wake_ms);
	}
	ctrl->wake_start = 0;
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
	struct device *devs[3 + TB_MAX_DSB + 2 * TB_NR_VOTES];
	unsigned int i, n = 0;

	devs[n++] = &ctrl->upsb->dev;
	devs[n++] = &ctrl->dev;
	/*
	 * Thunderbolt 3: a vote whose resume found the chip dead failed its
	 * function's resume, and the NHI's failure the resumes of the ports
	 * it supplies (the hotplug ports)
	 */
	devs[n++] = &ctrl->nhi->dev;
	for (i = 0; i < ctrl->ndsb; i++)
		devs[n++] = &ctrl->dsb[i]->dev;
	for (i = 0; i < TB_NR_VOTES; i++) {
		if (!ctrl->vote[i])
			continue;
		devs[n++] = &ctrl->vote[i]->dev;
		if (ctrl->vote[i]->fn)
			devs[n++] = &ctrl->vote[i]->fn->dev;
	}
	/* every pending request done first: one may fail another */
	for (i = 0; i < n; i++)
		pm_runtime_barrier(devs[i]);
	for (i = 0; i < n; i++)
		if (devs[i]->power.runtime_error && pm_runtime_status_suspended(devs[i]))
			pm_runtime_set_suspended(devs[i]);

	/* still off, with the GPE disarmed by the attempt: watch for plugs again */
	mutex_lock(&ctrl->lock);
	if (ctrl->off && !ctrl->armed && (ctrl->has_gpe || ctrl->has_notify || ctrl->own_gpe) &&
	    !ctrl->dying) {
		if (ctrl->up_failed_in_row < TB_MAX_UP_FAILURES)
			schedule_delayed_work(&ctrl->rearm_work, msecs_to_jiffies(TB_UP_RETRY_MS));
		else
			dev_err(&ctrl->dev, "%u power-ups in a row failed: plugs are no longer watched; write 1 to tb_macpm.power_down to try again\n",
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

/* Power the controller up and keep it so: stay_on has just been set. */
void tb_request_on(struct tb_ctrl *ctrl)
{
	unsigned int i;

	/*
	 * Thunderbolt 3's votes: the power comes with the upstream port's
	 * _PS0 and each function's own, which powers its rail; resuming a
	 * function resumes its vote first (RTPC(1)), and once it idles again
	 * its vote refuses to go (tb_ctrl_blocker()).
	 */
	if (ctrl->ops->power_with_upsb)
		pm_request_resume(&ctrl->upsb->dev);
	else
		pm_request_resume(&ctrl->dev);
	for (i = 0; i < TB_NR_VOTES; i++) {
		if (ctrl->vote[i] && ctrl->vote[i]->fn)
			pm_request_resume(&ctrl->vote[i]->fn->dev);
		else if (ctrl->vote[i])
			pm_request_resume(&ctrl->vote[i]->dev);
	}
}

/* A failed power-down, tried again (tb_xrpe.c). */
static void tb_down_retry_work(struct work_struct *work)
{
	struct tb_ctrl *ctrl = container_of(to_delayed_work(work), struct tb_ctrl,
					    down_retry_work);

	pm_request_idle(&ctrl->dev);
}

int tb_ctrl_power_init(struct tb_ctrl *ctrl)
{
	INIT_DELAYED_WORK(&ctrl->hold_work, tb_hold_work);
	INIT_DELAYED_WORK(&ctrl->down_retry_work, tb_down_retry_work);
	INIT_DELAYED_WORK(&ctrl->settle_work, tb_settle_work);
	INIT_WORK(&ctrl->look_work, tb_look_work);
	INIT_WORK(&ctrl->recover_work, tb_recover_work);
	tb_plug_init(ctrl);
	return 0;
}

/* Called with the controller powered and runtime PM held. */
void tb_ctrl_power_exit(struct tb_ctrl *ctrl)
{
	mutex_lock(&ctrl->lock);
	ctrl->dying = true;
	tb_disarm(ctrl);
	tb_chip_release(ctrl);
	mutex_unlock(&ctrl->lock);
	tb_plug_remove(ctrl);
	cancel_work_sync(&ctrl->gpe_work);
	cancel_work_sync(&ctrl->look_work);
	/* not cancelled: an unbind whose power-up failed leaves no error behind */
	flush_work(&ctrl->recover_work);
	cancel_delayed_work_sync(&ctrl->rearm_work);
	cancel_delayed_work_sync(&ctrl->down_retry_work);
	cancel_delayed_work_sync(&ctrl->hold_work);
	cancel_delayed_work_sync(&ctrl->settle_work);
	tb_release_ports(ctrl, true);
	/* the upstream port held after a failed power-up: the caller holds it now */
	mutex_lock(&ctrl->lock);
	if (ctrl->up_hold)
		pm_runtime_put_noidle(&ctrl->upsb->dev);
	ctrl->up_hold = false;
	mutex_unlock(&ctrl->lock);
}

/*
 * tb_macpm.dp_connected written (tb_ctrls_lock held): a Thunderbolt 3
 * controller powers up now and stays so while a connector is connected,
 * or may go off again once idle.
 */
void tb_ctrl_dp_changed(struct tb_ctrl *ctrl)
{
	unsigned int i;

	if (!tb_ctrl_is_tb3(ctrl))
		return;
	if (READ_ONCE(tb_dp_connected)) {
		tb_request_on(ctrl);
		return;
	}
	pm_request_idle(&ctrl->dev);
	for (i = 0; i < TB_NR_VOTES; i++)
		if (ctrl->vote[i])
			pm_request_idle(&ctrl->vote[i]->dev);
}

/* tb_macpm.power_down changed. */
void tb_ctrl_param_changed(struct tb_ctrl *ctrl)
{
	unsigned int i;

	mutex_lock(&ctrl->lock);
	if (ctrl->ops->retry)
		ctrl->ops->retry(ctrl);
	tb_plug_retry(ctrl);
	/*
	 * A power-up that did not come back: try again. Thunderbolt 3 lets
	 * the upstream port go, so that the chain idles and the firmware cuts;
	 * the next power-up starts from the copies (tb_votes.c). The errors
	 * of the resumes that failed meanwhile are cleared first.
	 */
	if (ctrl->stay_on == tb_up_failed_reason)
		ctrl->stay_on = NULL;
	if (ctrl->up_hold) {
		ctrl->up_hold = false;
		pm_runtime_put(&ctrl->upsb->dev);
		schedule_work(&ctrl->recover_work);
	}
	/*
	 * Thunderbolt 1 and 2 off after failed power-ups, its plug no longer
	 * watched (tb_recover_work()): watched again, so the next plug tries
	 */
	ctrl->up_failed_in_row = 0;
	if (ctrl->off && !ctrl->armed && !ctrl->dying)
		mod_delayed_work(system_wq, &ctrl->rearm_work, 0);
	mutex_unlock(&ctrl->lock);
	if (tb_power_down) {
		pm_request_idle(&ctrl->dev);
		for (i = 0; i < TB_NR_VOTES; i++)
			if (ctrl->vote[i])
				pm_request_idle(&ctrl->vote[i]->dev);
	} else {
		tb_request_on(ctrl);
	}
}
