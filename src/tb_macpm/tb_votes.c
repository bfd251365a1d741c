// SPDX-License-Identifier: GPL-2.0
/*
 * tb_macpm - Thunderbolt 3's power votes and the root port's _PS3
 *
 * The mechanism behind struct tb_mech_ops for Alpine and Titan Ridge Macs:
 * RTPC(0) on the NHI and on the xHCI takes their votes back, the root
 * port's _PS3 then cuts the power as the PCI core suspends the port, and
 * the upstream port's _PS0 restores it (see the overview in tb_core.c).
 * Also what the bind asks of the firmware for it: whether RTPC is a stub
 * (MacPro7,1's), and where the xHCI's vote is.
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "tb_macpm.h"

/* While the root port may not runtime-suspend */
#define TB_RP_NO_SUSPEND_REASON	"its root port may not runtime-suspend, so the firmware's _PS3 would not cut the power"

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

/*
 * The firmware's _PS3 cuts the power only if the PCI core runtime-suspends
 * the root port, which it does not with D3 ruled out for it (bridge_d3) or
 * its runtime PM forbidden.
 */
static const char *tb_votes_blocker(struct tb_ctrl *ctrl)
{
	if (!ctrl->rp->bridge_d3 || !ctrl->rp->dev.power.runtime_auto)
		return TB_RP_NO_SUSPEND_REASON;
	return NULL;
}

/*
 * Give the votes back and listen for plugs. The power goes when the PCI
 * core suspends the root port next, in its _PS3. A plug that came while
 * the NHI was suspended and this switch not yet off was heard all the
 * same: the notify handler takes a plug whenever it comes (see
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
	tb_ctrl_mark_d3cold(ctrl);
	return 0;
}

/*
 * The votes back, so that no _PS3 of the root port cuts a controller in
 * use; the upstream port's _PS0, which the PCI core runs right after this
 * (its supplier), powers it up and waits for the link.
 */
static int tb_votes_on(struct tb_ctrl *ctrl)
{
	tb_vote(ctrl, true);
	return 0;
}

/* After a system sleep the controller spent off (see tb_sleep.c). */
static int tb_votes_resume_noirq(struct tb_ctrl *ctrl)
{
	ktime_t start = ktime_get();
	int ret;

	ret = tb_ctrl_power_on(ctrl);
	if (!ret)
		dev_dbg(&ctrl->dev, "votes given back in %lld ms before the upstream port's resume_noirq\n",
			ktime_ms_delta(ktime_get(), start));
	return ret;
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
	void *found = NULL;

	if (upsb_handle)
		acpi_walk_namespace(ACPI_TYPE_DEVICE, upsb_handle, 2, tb3_match_xhci, NULL,
				    ctrl, &found);
	/* a static SSDT object: the handle outlives the PCI device */
	ctrl->xhci = found;
	if (!ctrl->xhci && !ctrl->stay_on)
		ctrl->stay_on = "Thunderbolt 3: no xHCI with an RTPC vote found behind it";
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
	.blocker	= tb_votes_blocker,
	.off		= tb_votes_off,
	.on		= tb_votes_on,
	.resume_noirq	= tb_votes_resume_noirq,
	.power_with_upsb = true,
};
