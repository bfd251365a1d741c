// SPDX-License-Identifier: GPL-2.0
/*
 * tb_macpm - Thunderbolt 3's power votes and the root port's _PS3
 *
 * The mechanism behind struct tb_mech_ops for Alpine and Titan Ridge Macs:
 * the NHI's and the xHCI's RTPC votes, each a small device between the
 * function and the downstream port above it, so that the vote goes before
 * that port's _PS3 runs; the power switch as the root port's supplier,
 * which sees after the root port's _PS3 whether the firmware cut. Also
 * what the bind asks of the firmware for it: whether RTPC is a stub
 * (MacPro7,1's), and where the xHCI's vote is.
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/pm_runtime.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "tb_macpm.h"

/**
 * DOC: Thunderbolt 3 votes
 *
 * Apple's Thunderbolt 3 firmware has two power rails per controller, one
 * for Thunderbolt (the NHI's side) and one for USB (the xHCI's), PCH GPIOs
 * that the _PS3 and _PS0 methods of the controller's ports switch. What
 * they decide from, read in the Macs' own tables and replayed there in
 * ACPICA's acpiexec (Documentation/dev-tools/firmware-replay.rst):
 *
 * - RTPC(Arg0) of the NHI and of the xHCI is the operating system's vote:
 *   1 keeps that rail, 0 lets it go (the root port's RTBT and RUSB).
 * - GNHI and GXCI are the firmware's own: the NHI's and the xHCI's _PS0 set
 *   them, and only the _PS3 of the downstream port above each (DSB0, DSB2)
 *   clears them, and only if that function's vote is 0 when it runs; that
 *   _PS3 then drops the rail itself (UGIO).
 * - The root port's _PS3 cuts what is left: the Thunderbolt rail unless
 *   GNHI || RTBT, the USB rail unless GXCI || RUSB (a CPU PEG port drops
 *   both, and UGIO powers the wanted ones again), and sets GPCI to 0. The
 *   upstream port's _PS0 sets GPCI to 1, which powers both rails.
 *
 * So a vote must be 0 before the downstream port above its function
 * suspends. Given later, as when this module gave both votes from the
 * power switch's suspend, that port's _PS3 says "not disabling", its flag
 * stays 1, and the root port's _PS3 cuts nothing (a PEG port cuts both
 * rails for 10 ms and powers them again: a reset, not a power-down).
 *
 * The PM core runs a consumer's runtime suspend before its suppliers', and
 * a child's before its parent's. Each vote is therefore a device of its
 * own: a child of the downstream port, which cannot suspend while the vote
 * is active, and a runtime-PM supplier of the function, which suspends
 * first. The function idles; its vote suspends and calls RTPC(0); the port
 * suspends, and its _PS3 clears the flag and drops the rail. The vote goes
 * tb_macpm.power_off_delay_ms after its function idles (a plug or a use
 * within that time finds the rail still on). Resuming the function resumes
 * the port (_PS0: its link back), then the vote (RTPC(1)), then the
 * function (_PS0: the rail and the flag back). A vote refuses to go while
 * the controller must stay on (tb_ctrl_blocker()); an RTPC that fails
 * is tried again a second later, and only TB_VOTE_MAX_FAILURES failures in
 * a row keep the controller on for good (until tb_macpm.power_down is
 * written).
 *
 * The power switch is the runtime-PM supplier of the root port, so its
 * suspend runs after the root port's _PS3: it records the controller off
 * only if the firmware says it cut both rails (GPCI, GNHI and GXCI 0 with
 * both votes 0), marks the devices below the upstream port D3cold and
 * listens for plugs. Resuming the root port resumes the switch first; the
 * upstream port's _PS0 powers the controller. A root port that may not
 * runtime-suspend keeps the switch on (tb_votes_blocker()), not the votes:
 * the ports' _PS3 still drop a rail whose function idles while the other
 * is in use, and once both idle, the firmware powers both again as long
 * as the root port is up (UGIO: GPCI 1), as on the Mac.
 *
 * A power-up that does not come back. The upstream port's _PS0 gives up
 * silently when the chip does not answer (its PCED polls time out), and
 * the PCI core's resume of the port does not fail for it: the devices are
 * asked instead, once they have resumed. A vote, before its function
 * resumes, asks the upstream port and the port above it (and fails the
 * function's resume if either is dead: no driver runs on a dead chip, and
 * the function keeps its saved config space); the NHI resumed for a plug
 * is asked (tb_hold_ports()), and whatever is resumed a while after each
 * power-up (tb_ctrl_settle()). A failure is counted, and the controller
 * stays on, its upstream port held, until tb_macpm.power_down is written
 * (tb_ctrl_up_failed()). The ports that resumed onto the dead chip may
 * meanwhile have saved what it read back: so the switch copies, at every
 * cut after which nothing failed, the config space the chip's functions
 * saved for it, and the first power-up after a failure puts the copies
 * in place before the upstream port's _PS0, for the PCI core to restore
 * (tb_votes_load_copies()).
 */

/* A root port without the names that tell what its _PS3 did */
#define TB_STAY_ON_NO_FW_NAMES	"Thunderbolt 3: its root port lacks the names (GPCI, GNHI, GXCI, RTBT, RUSB) that tell whether its _PS3 cut the power"
/* While the root port may not runtime-suspend */
#define TB_RP_NO_SUSPEND_REASON	"its root port may not runtime-suspend, so the firmware's _PS3 would not cut the power"
/* A failed RTPC(0) is tried again this much later, this many times in a row. */
#define TB_VOTE_RETRY_MS	1000
#define TB_VOTE_MAX_FAILURES	5
#define TB_VOTE_FAILED_REASON	"its power vote (RTPC) failed several times in a row; write 1 to tb_macpm.power_down to try again"
static const char tb_vote_failed_reason[] = TB_VOTE_FAILED_REASON;

/*
 * The names of the root port's scope that tell what its _PS3 did, read
 * after it ran (tb3_fw_cut()).
 */
enum { TB3_GPCI, TB3_GNHI, TB3_GXCI, TB3_RTBT, TB3_RUSB, TB3_NR_NAMES };
static const char * const tb3_fw_names[TB3_NR_NAMES] = {
	[TB3_GPCI] = "GPCI", [TB3_GNHI] = "GNHI", [TB3_GXCI] = "GXCI",
	[TB3_RTBT] = "RTBT", [TB3_RUSB] = "RUSB",
};

/* Whether @handle's scope has an object @name (a method or a Name). */
static bool tb_acpi_has(acpi_handle handle, const char *name)
{
	acpi_handle h;

	return handle && ACPI_SUCCESS(acpi_get_handle(handle, (char *)name, &h));
}

static struct tb_vote *tb_vote_from_dev(struct device *dev)
{
	return container_of(dev, struct tb_vote, dev);
}

/* RTPC(@on) on @handle: a Thunderbolt 3 vote (1: keep powered, 0: may cut). */
static int tb_rtpc(struct tb_ctrl *ctrl, acpi_handle handle, const char *what, bool on)
{
	acpi_status status;

	status = acpi_execute_simple_method(handle, "RTPC", on);
	if (ACPI_FAILURE(status)) {
		ctrl->errors++;
		dev_err_ratelimited(&ctrl->dev, "%s's RTPC(%d) failed: %s\n", what, on,
				    acpi_format_exception(status));
		return -EIO;
	}
	return 0;
}

/* Ask the votes other than @except to go, where their function is idle. */
static void tb_votes_nudge(struct tb_ctrl *ctrl, struct tb_vote *except)
{
	unsigned int i;

	for (i = 0; i < TB_NR_VOTES; i++)
		if (ctrl->vote[i] && ctrl->vote[i] != except)
			pm_request_idle(&ctrl->vote[i]->dev);
}

/*
 * The function is idle (its runtime suspend is done): give its vote back,
 * unless the controller must stay on. The downstream port above suspends
 * next and its _PS3 drops the rail.
 */
static int tb_vote_runtime_suspend(struct device *dev)
{
	struct tb_vote *v = tb_vote_from_dev(dev);
	struct tb_ctrl *ctrl = v->ctrl;
	int ret = 0;

	mutex_lock(&ctrl->lock);
	if (tb_ctrl_blocker(ctrl)) {
		ret = -EBUSY;
	} else if (tb_rtpc(ctrl, v->handle, v->what, false)) {
		/* -EBUSY: an error would stop the vote's runtime PM */
		ret = -EBUSY;
		if (++v->failed_in_row >= TB_VOTE_MAX_FAILURES) {
			ctrl->stay_on = tb_vote_failed_reason;
			dev_err(&ctrl->dev, "%s's RTPC(0) failed %u times in a row: the controller stays powered\n",
				v->what, v->failed_in_row);
		} else {
			schedule_delayed_work(&v->retry_work, msecs_to_jiffies(TB_VOTE_RETRY_MS));
		}
	} else {
		v->failed_in_row = 0;
		v->given = true;
		dev_dbg(&ctrl->dev, "%s's vote given back (RTPC(0))\n", v->what);
	}
	mutex_unlock(&ctrl->lock);
	/*
	 * The other vote may have refused while something kept the
	 * controller on (a peer connected, now gone): what let this one go
	 * lets it go too, if its function is idle.
	 */
	if (!ret)
		tb_votes_nudge(ctrl, v);
	return ret;
}

/*
 * The function is about to resume: its vote back, so that no _PS3 of its
 * port cuts it while in use. The function's own _PS0, after this, powers
 * its rail whatever the vote; a failed RTPC(1) must not fail that resume
 * (the function works, and the firmware cuts nothing from a suspend that
 * cannot come while it is in use).
 *
 * The upstream port's _PS0, which powers the chip, and the _PS0 of the
 * port above this vote have run: both ports must answer now. If they do
 * not, the power-up did not come back (tb_ctrl_up_failed()), and this
 * resume fails, so that the function's does: its driver is not called on
 * a dead chip and its saved config space stays as it was; the vote stays
 * given.
 */
static int tb_vote_runtime_resume(struct device *dev)
{
	struct tb_vote *v = tb_vote_from_dev(dev);
	struct tb_ctrl *ctrl = v->ctrl;
	struct pci_dev *dead = NULL;

	mutex_lock(&ctrl->lock);
	if (!pci_device_is_present(ctrl->upsb))
		dead = ctrl->upsb;
	else if (!pci_device_is_present(v->port))
		dead = v->port;
	if (dead) {
		tb_ctrl_up_failed(ctrl, pci_name(dead));
		mutex_unlock(&ctrl->lock);
		return -EIO;
	}
	if (!tb_rtpc(ctrl, v->handle, v->what, true))
		v->given = false;
	mutex_unlock(&ctrl->lock);
	return 0;
}

/*
 * The function has suspended (the PM core idles its supplier): the vote
 * goes tb_macpm.power_off_delay_ms later, counted from now, not from when
 * the vote was last resumed.
 */
static int tb_vote_runtime_idle(struct device *dev)
{
	pm_runtime_mark_last_busy(dev);
	pm_request_autosuspend(dev);
	return -EBUSY;
}

static void tb_vote_retry_work(struct work_struct *work)
{
	struct tb_vote *v = container_of(to_delayed_work(work), struct tb_vote, retry_work);

	pm_request_idle(&v->dev);
}

static const struct dev_pm_ops tb_vote_pm_ops = {
	SET_RUNTIME_PM_OPS(tb_vote_runtime_suspend, tb_vote_runtime_resume, tb_vote_runtime_idle)
};

static void tb_vote_release(struct device *dev)
{
	kfree(tb_vote_from_dev(dev));
	tb_dev_released();
}

static const struct device_type tb_vote_type = {
	.name		= "tb_macpm_vote",
	.pm		= &tb_vote_pm_ops,
	.release	= tb_vote_release,
};

/*
 * Make @fn, the function the vote is for, the vote's runtime-PM consumer,
 * and let the vote go once the function is idle (tb_ctrls_lock held).
 */
static void tb_vote_link(struct tb_vote *v, struct pci_dev *fn)
{
	/*
	 * The function active while linked, so that the link's RPM_ACTIVE
	 * holds: its next suspend then drops the vote's reference.
	 */
	pm_runtime_get_sync(&fn->dev);
	v->link = device_link_add(&fn->dev, &v->dev, DL_FLAG_STATELESS | DL_FLAG_PM_RUNTIME |
				  DL_FLAG_RPM_ACTIVE);
	pm_runtime_put(&fn->dev);
	if (!v->link) {
		dev_warn(&v->ctrl->dev, "cannot make %s %s a consumer of its power vote: the vote stays 1\n",
			 v->what, pci_name(fn));
		return;
	}
	v->fn = pci_dev_get(fn);
	/* the hold taken in tb_vote_add(): the function's now */
	pm_runtime_put(&v->dev);
}

/*
 * A vote for the function whose ACPI companion @handle holds RTPC, below
 * @port: a device of its own, a child of @port, held active (vote 1) until
 * its function is linked. @what names the function in the log, @name in
 * the device's name.
 */
static struct tb_vote *tb_vote_add(struct tb_ctrl *ctrl, acpi_handle handle,
				   struct pci_dev *port, const char *what, const char *name)
{
	struct tb_vote *v;

	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return NULL;
	v->ctrl = ctrl;
	v->handle = handle;
	v->what = what;
	v->port = pci_dev_get(port);
	INIT_DELAYED_WORK(&v->retry_work, tb_vote_retry_work);
	device_initialize(&v->dev);
	tb_ctrl_count_dev();
	v->dev.parent = &port->dev;
	v->dev.type = &tb_vote_type;
	/* "0000:03:00.0-nhi-vote": the controller's NHI, then whose vote */
	dev_set_name(&v->dev, "%s-%s-vote", pci_name(ctrl->nhi), name);
	/* an active child needs an active parent */
	pm_runtime_get_sync(&port->dev);
	pm_runtime_get_noresume(&v->dev);
	pm_runtime_set_active(&v->dev);
	if (device_add(&v->dev)) {
		dev_err(&ctrl->dev, "cannot register the %s's power vote\n", what);
		pm_runtime_put(&port->dev);
		pci_dev_put(v->port);
		put_device(&v->dev);
		return NULL;
	}
	pm_runtime_set_autosuspend_delay(&v->dev, tb_power_off_delay_ms);
	pm_runtime_use_autosuspend(&v->dev);
	pm_runtime_enable(&v->dev);
	pm_runtime_put(&port->dev);
	return v;
}

/*
 * Take the vote back for good (RTPC(1)) and stop its runtime PM: no
 * callback of it runs after this (tb_ctrls_lock held).
 */
static void tb_vote_stop(struct tb_vote *v)
{
	/* resumes the port above, then the vote: RTPC(1) */
	pm_runtime_get_sync(&v->dev);
	cancel_delayed_work_sync(&v->retry_work);
	pm_runtime_disable(&v->dev);
}

/* Remove a stopped vote (tb_ctrls_lock held). */
static void tb_vote_remove(struct tb_vote *v)
{
	if (v->link)
		device_link_del(v->link);
	pci_dev_put(v->fn);
	pm_runtime_put_noidle(&v->dev);
	device_del(&v->dev);
	pci_dev_put(v->port);
	put_device(&v->dev);
}

/* The PCI device on @bus whose ACPI companion is @handle. */
static struct pci_dev *tb_pci_by_handle(struct pci_bus *bus, acpi_handle handle)
{
	struct pci_dev *pdev;

	if (!bus)
		return NULL;
	list_for_each_entry(pdev, &bus->devices, bus_list)
		if (ACPI_HANDLE(&pdev->dev) == handle)
			return pdev;
	return NULL;
}

/*
 * Thunderbolt 3: the votes as devices (tb_ctrls_lock held, the power
 * switch registered). The NHI's below DSB0; the xHCI's below the port whose
 * ACPI companion holds the xHCI's (DSB2), linked to the xHCI once that is
 * there: when the NHI is added in a scan, the xHCI is not yet.
 */
static void tb_votes_attach(struct tb_ctrl *ctrl)
{
	struct pci_dev *port = NULL, *xhci;
	acpi_handle parent;

	ctrl->vote[TB_VOTE_NHI] = tb_vote_add(ctrl, ctrl->handle, ctrl->dsb0, "NHI", "nhi");
	if (ctrl->vote[TB_VOTE_NHI])
		tb_vote_link(ctrl->vote[TB_VOTE_NHI], ctrl->nhi);
	if (!ctrl->xhci)
		return;
	if (ACPI_SUCCESS(acpi_get_parent(ctrl->xhci, &parent)))
		port = tb_pci_by_handle(ctrl->upsb->subordinate, parent);
	if (!port) {
		if (!ctrl->stay_on)
			ctrl->stay_on = "Thunderbolt 3: the port above its xHCI has no PCI device";
		return;
	}
	ctrl->vote[TB_VOTE_XHCI] = tb_vote_add(ctrl, ctrl->xhci, port, "xHCI", "xhci");
	xhci = tb_pci_by_handle(port->subordinate, ctrl->xhci);
	if (ctrl->vote[TB_VOTE_XHCI] && xhci)
		tb_vote_link(ctrl->vote[TB_VOTE_XHCI], xhci);
}

/* A PCI device was added: the xHCI whose vote waits for it (tb_ctrls_lock held). */
static void tb_votes_pci_add(struct tb_ctrl *ctrl, struct pci_dev *pdev)
{
	struct tb_vote *v = ctrl->vote[TB_VOTE_XHCI];

	if (!v || v->fn || v->link || ACPI_HANDLE(&pdev->dev) != ctrl->xhci ||
	    pdev->bus->self != v->port)
		return;
	tb_vote_link(v, pdev);
	/* the NHI's vote may have waited for it (tb_votes_blocker()) */
	if (ctrl->vote[TB_VOTE_NHI])
		pm_request_idle(&ctrl->vote[TB_VOTE_NHI]->dev);
}

/*
 * The config space the upstream port and every function below it saved
 * for this cut, copied (ctrl->lock held): after a power-up that did not
 * come back, the PCI core may have restored them into a dead chip and
 * saved again what it read back (all ones, or power-on values) when they
 * suspended; the next power-up then starts from these copies
 * (tb_votes_load_copies()). Taken only while nothing failed since the
 * last ones, each device as it saved itself (runtime-suspended: the
 * state is saved); at a cut nothing is connected, so these are the
 * chip's own functions.
 */
static int tb_votes_copy_one(struct pci_dev *pdev, void *data)
{
	struct tb_ctrl *ctrl = data;
	struct pci_saved_state *state;

	if (ctrl->ncut >= TB_CHIP_MAX)
		return 0;
	state = pci_store_saved_state(pdev);
	if (!state)
		return 0;
	ctrl->cut[ctrl->ncut] = pci_dev_get(pdev);
	ctrl->cut_state[ctrl->ncut++] = state;
	return 0;
}

static void tb_votes_drop_copies(struct tb_ctrl *ctrl)
{
	while (ctrl->ncut) {
		ctrl->ncut--;
		kfree(ctrl->cut_state[ctrl->ncut]);
		pci_dev_put(ctrl->cut[ctrl->ncut]);
	}
}

static void tb_votes_copy(struct tb_ctrl *ctrl)
{
	unsigned int noio;

	if (ctrl->up_bad)
		return;
	tb_votes_drop_copies(ctrl);
	/* the root port's supplier suspending: no I/O for the allocations */
	noio = memalloc_noio_save();
	tb_votes_copy_one(ctrl->upsb, ctrl);
	pci_walk_bus(ctrl->upsb->subordinate, tb_votes_copy_one, ctrl);
	memalloc_noio_restore(noio);
}

/*
 * Before the upstream port's _PS0, after a power-up that did not come
 * back (ctrl->lock held): every device below the root port is suspended,
 * and what the PCI core restores after the power-up is what each saved:
 * put the copies of the last good cut in their place.
 */
static void tb_votes_load_copies(struct tb_ctrl *ctrl)
{
	unsigned int i;

	if (!ctrl->up_bad)
		return;
	for (i = 0; i < ctrl->ncut; i++)
		pci_load_saved_state(ctrl->cut[i], ctrl->cut_state[i]);
	dev_info(&ctrl->dev, "powering up after a power-up that did not come back: the config space of %u functions as at the last good cut\n",
		 ctrl->ncut);
}

/*
 * Remove the votes, each taken back first (RTPC(1)): with both at 1 no
 * _PS3 of the controller's ports cuts anything (tb_ctrls_lock held).
 */
static void tb_votes_detach(struct tb_ctrl *ctrl)
{
	unsigned int i;

	/* all stopped first: a vote's suspend may nudge the other (tb_votes_nudge()) */
	for (i = 0; i < TB_NR_VOTES; i++)
		if (ctrl->vote[i])
			tb_vote_stop(ctrl->vote[i]);
	for (i = 0; i < TB_NR_VOTES; i++) {
		if (ctrl->vote[i])
			tb_vote_remove(ctrl->vote[i]);
		ctrl->vote[i] = NULL;
	}
	mutex_lock(&ctrl->lock);
	tb_votes_drop_copies(ctrl);
	mutex_unlock(&ctrl->lock);
}

/*
 * The firmware's _PS3 cuts the power only if the PCI core runtime-suspends
 * the root port, which it does not with D3 ruled out for it (bridge_d3) or
 * its runtime PM forbidden; nor does it while a vote waits for its function.
 */
static const char *tb_votes_blocker(struct tb_ctrl *ctrl)
{
	struct tb_vote *x = ctrl->vote[TB_VOTE_XHCI];

	if (!ctrl->rp->bridge_d3 || !ctrl->rp->dev.power.runtime_auto)
		return TB_RP_NO_SUSPEND_REASON;
	if (x && !x->link)
		return "its xHCI's vote waits for the xHCI's PCI device";
	return NULL;
}

/*
 * What the root port's _PS3 did, from the names it sets: both rails are
 * off once it ran its power-down (GPCI 0) with neither function wanting
 * power (GNHI and GXCI 0) nor voting for it (RTBT and RUSB 0). Fills @buf
 * with the values for the log. Return: true if it cut, false if it did
 * not or cannot be read.
 */
static bool tb3_fw_cut(struct tb_ctrl *ctrl, unsigned long long *v, char *buf, size_t len)
{
	acpi_handle rp = ACPI_HANDLE(&ctrl->rp->dev);
	bool cut = true;
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tb3_fw_names); i++) {
		if (ACPI_FAILURE(acpi_evaluate_integer(rp, (char *)tb3_fw_names[i], NULL, &v[i]))) {
			n += scnprintf(buf + n, len - n, "%s? ", tb3_fw_names[i]);
			v[i] = ~0ULL;
			cut = false;
			continue;
		}
		n += scnprintf(buf + n, len - n, "%s %llu ", tb3_fw_names[i], v[i]);
		if (v[i])
			cut = false;
	}
	return cut;
}

/*
 * The root port has suspended and its _PS3 has run (this switch is its
 * supplier). Record the controller off only if the firmware cut it; the
 * plug is listened for, and the devices below the upstream port are
 * marked D3cold, so that the PCI core restores and resumes all of them with
 * the upstream port (pci_pm_bridge_power_up_actions()): the root port has
 * no _PR3, so the PCI core itself only knows of D3hot.
 */
static int tb_votes_off(struct tb_ctrl *ctrl)
{
	unsigned long long v[TB3_NR_NAMES];
	char fw[64];

	if (!tb3_fw_cut(ctrl, v, fw, sizeof(fw))) {
		ctrl->fw_kept_on++;
		dev_dbg(&ctrl->dev, "the root port's _PS3 did not cut the power: %s\n", fw);
		/*
		 * Both votes 0 and GPCI 1: the upstream port's _PS0 powered the
		 * chip after the root port's _PS3 (the PCI core restores a
		 * port it kept suspended through an aborted system sleep).
		 * Resume the root port, so that its _PS3 runs again once idle;
		 * with both votes 0 that one cuts (GPCI 0).
		 */
		if (v[TB3_GPCI] == 1 && !v[TB3_RTBT] && !v[TB3_RUSB] &&
		    pm_runtime_suspended(&ctrl->rp->dev))
			pm_request_resume(&ctrl->rp->dev);
		return -EBUSY;
	}
	if (tb_arm(ctrl)) {
		ctrl->stay_on = "its plug notification cannot be armed";
		tb_request_on(ctrl);
		return -EBUSY;
	}
	dev_dbg(&ctrl->dev, "the root port's _PS3 cut the power: %s\n", fw);
	tb_votes_copy(ctrl);
	tb_ctrl_mark_d3cold(ctrl);
	return 0;
}

/*
 * The root port resumes: its _PS0 and then the upstream port's, which
 * powers the controller (GPCI 1), come after this; the votes come back
 * with their functions.
 */
static int tb_votes_on(struct tb_ctrl *ctrl)
{
	dev_dbg(&ctrl->dev, "the root port resumes: the upstream port's _PS0 powers the controller\n");
	tb_votes_load_copies(ctrl);
	return 0;
}

/* After a system sleep the controller spent off (see tb_sleep.c). */
static int tb_votes_resume_noirq(struct tb_ctrl *ctrl)
{
	int ret;

	ret = tb_ctrl_power_on(ctrl);
	if (!ret)
		dev_dbg(&ctrl->dev, "on again before the root port's resume_noirq; the upstream port's _PS0 powers it\n");
	return ret;
}

/* tb_macpm.power_down written: votes that failed are tried again. */
static void tb_votes_retry(struct tb_ctrl *ctrl)
{
	unsigned int i;

	if (ctrl->stay_on == tb_vote_failed_reason)
		ctrl->stay_on = NULL;
	for (i = 0; i < TB_NR_VOTES; i++)
		if (ctrl->vote[i])
			ctrl->vote[i]->failed_in_row = 0;
}

/*
 * The controller's xHCI, a device two levels below the upstream port's
 * ACPI companion (XHC2 in DSB2 on the Macs of the reference) that has
 * RTPC, for the USB vote. Looked up in the namespace, not on the PCI bus:
 * when the NHI is added (BUS_NOTIFY_ADD_DEVICE in a scan), the xHCI's
 * branch may not be scanned yet. None found: the firmware's USB vote stays
 * at 1 and its _PS3 never cuts; the controller stays on.
 */
static acpi_status tb3_match_xhci(acpi_handle handle, u32 depth, void *data, void **ret)
{
	struct tb_ctrl *ctrl = data;

	if (depth != 2 || handle == ctrl->handle || !acpi_has_method(handle, "RTPC"))
		return AE_OK;
	*ret = handle;
	return AE_CTRL_TERMINATE;
}

static void tb3_find_xhci(struct tb_ctrl *ctrl)
{
	acpi_handle upsb_handle = ACPI_HANDLE(&ctrl->upsb->dev);
	acpi_handle rp = ACPI_HANDLE(&ctrl->rp->dev);
	void *found = NULL;
	unsigned int i;

	if (upsb_handle)
		acpi_walk_namespace(ACPI_TYPE_DEVICE, upsb_handle, 2, tb3_match_xhci, NULL,
				    ctrl, &found);
	/* a static SSDT object: the handle outlives the PCI device */
	ctrl->xhci = found;
	if (!ctrl->xhci && !ctrl->stay_on)
		ctrl->stay_on = "Thunderbolt 3: no xHCI with an RTPC vote found behind it";
	/* what tells whether the firmware cut (tb3_fw_cut()) */
	for (i = 0; i < ARRAY_SIZE(tb3_fw_names); i++) {
		if (!tb_acpi_has(rp, tb3_fw_names[i]) && !ctrl->stay_on) {
			ctrl->stay_on = TB_STAY_ON_NO_FW_NAMES;
			break;
		}
	}
}

/*
 * Whether the NHI's RTPC is a stub that leaves the root port's RTBT alone
 * (MacPro7,1's returns 0 and writes nothing): the root port's _PS3 would
 * then never cut, and a switch "off" by the votes would be on. Asked once,
 * RTPC(0) and RTPC(1) back to back on the NHI only: the xHCI's vote stays
 * 1 meanwhile, so no _PS3 of the root port can cut in between. A table
 * without RTBT cannot be asked: its votes are taken as they are.
 * Return: 1 for a stub, 0 for votes that work (or cannot be asked),
 * -EIO when RTBT could not be read back.
 */
int tb3_vote_is_stub(struct tb_ctrl *ctrl, acpi_handle rp_handle)
{
	unsigned long long v;
	acpi_status status;

	if (ACPI_FAILURE(acpi_evaluate_integer(rp_handle, "RTBT", NULL, &v)))
		return 0;
	if (ACPI_FAILURE(acpi_execute_simple_method(ctrl->handle, "RTPC", 0)))
		return 0;
	status = acpi_evaluate_integer(rp_handle, "RTBT", NULL, &v);
	acpi_execute_simple_method(ctrl->handle, "RTPC", 1);
	/* read once, not twice: no telling, and no mixing TRPE in on a guess */
	if (ACPI_FAILURE(status))
		return -EIO;
	return v != 0;
}

/* Alpine and Titan Ridge whose RTPC votes work. */
const struct tb_mech_ops tb_votes_ops = {
	.init		= tb3_find_xhci,
	.attach		= tb_votes_attach,
	.detach		= tb_votes_detach,
	.pci_add	= tb_votes_pci_add,
	.blocker	= tb_votes_blocker,
	.off		= tb_votes_off,
	.on		= tb_votes_on,
	.resume_noirq	= tb_votes_resume_noirq,
	.retry		= tb_votes_retry,
	.power_with_upsb = true,
	.supplies_rp	= true,
};
