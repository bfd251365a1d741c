// SPDX-License-Identifier: GPL-2.0
/*
 * tb_macpm - XRPE and TRPE, the power methods in the NHI's ACPI scope
 *
 * Two mechanisms behind struct tb_mech_ops: Thunderbolt 1 and 2, which
 * switch the power through XRPE (Macs of 2011/2012) or TRPE (from 2013)
 * and poll XRIL after a power-down, and MacPro7,1's Titan Ridge, which
 * has TRPE alone. They share everything but the XRIL poll: the method
 * call, the wait for the upstream port after a power-up, the reset after
 * system sleep.
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>

#include "tb_macpm.h"

/* macOS polls XRIL up to 300 times, 1 ms apart, after XRPE(0). */
#define TB_OFF_POLL_MS		300
/* How long the upstream port may take to answer after XRPE(1). */
#define TB_LINK_WAIT_MS		2000
/* Refused power-downs in a row before the controller is left on. */
#define TB_MAX_REFUSALS		5
/*
 * A power-down whose method failed, or whose plug GPE could not be
 * enabled, is tried again this much later, this many times in a row.
 */
#define TB_DOWN_RETRY_MS	1000
#define TB_MAX_DOWN_FAILURES	5

/* Why it stays on after TB_MAX_REFUSALS; cleared by writing power_down. */
#define TB_REFUSED_REASON	"the firmware refused to power it down (XRIL) several times in a row: something is plugged in that no driver sees; write 1 to tb_macpm.power_down to try again"
static const char tb_refused_reason[] = TB_REFUSED_REASON;
/* ... and after TB_MAX_DOWN_FAILURES; cleared by writing power_down too */
#define TB_DOWN_FAILED_REASON	"its power-down method failed several times in a row; write 1 to tb_macpm.power_down to try again"
#define TB_ARM_FAILED_REASON	"its plug GPE could not be enabled several times in a row; write 1 to tb_macpm.power_down to try again"
static const char tb_down_failed_reason[] = TB_DOWN_FAILED_REASON;
static const char tb_arm_failed_reason[] = TB_ARM_FAILED_REASON;

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
int tb_xril(struct tb_ctrl *ctrl)
{
	unsigned long long v;

	if (ACPI_FAILURE(acpi_evaluate_integer(ctrl->handle, "XRIL", NULL, &v)))
		return -EIO;
	return v ? 1 : 0;
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

/*
 * Bring the root port back after XRPE/TRPE failed part-way. The real
 * methods put the root port in D3hot (its PMCSR, behind the PCI core's
 * back) and disable its link before they cut the rail, and their power-up
 * does nothing unless the rail is off: a failure in between leaves a
 * powered controller behind a port in D3hot with its link disabled. The
 * PCI core still thinks the port in D0 (pci_set_power_state() would do
 * nothing): it is told what the port's PMCSR says, as
 * pci_update_current_state() would (not exported), then brought to D0;
 * the link is enabled again.
 * Return: whether the port had to be brought back.
 */
static bool tb_rp_recover(struct tb_ctrl *ctrl)
{
	struct pci_dev *rp = ctrl->rp;
	u16 pmcsr = 0, lnkctl = 0;

	if (rp->pm_cap) {
		pci_read_config_word(rp, rp->pm_cap + PCI_PM_CTRL, &pmcsr);
		if (!PCI_POSSIBLE_ERROR(pmcsr) && (pmcsr & PCI_PM_CTRL_STATE_MASK)) {
			rp->current_state = (__force pci_power_t)(pmcsr & PCI_PM_CTRL_STATE_MASK);
			pci_set_power_state(rp, PCI_D0);
		}
	}
	pcie_capability_read_word(rp, PCI_EXP_LNKCTL, &lnkctl);
	if (lnkctl & PCI_EXP_LNKCTL_LD)
		pcie_capability_clear_word(rp, PCI_EXP_LNKCTL, PCI_EXP_LNKCTL_LD);
	if (!(pmcsr & PCI_PM_CTRL_STATE_MASK) && !(lnkctl & PCI_EXP_LNKCTL_LD))
		return false;
	dev_warn(&ctrl->dev, "root port %s was left by %s%s%s: brought back\n",
		 pci_name(rp), ctrl->set_method,
		 pmcsr & PCI_PM_CTRL_STATE_MASK ? " in D3hot" : "",
		 lnkctl & PCI_EXP_LNKCTL_LD ? " with its link disabled" : "");
	return true;
}

/* Wait (bounded) until the upstream port answers. */
static bool tb_upsb_wait(struct tb_ctrl *ctrl)
{
	ktime_t deadline = ktime_add_ms(ktime_get(), TB_LINK_WAIT_MS);
	bool alive;

	for (;;) {
		bool late = ktime_after(ktime_get(), deadline);

		alive = pci_device_is_present(ctrl->upsb);
		if (alive || late)
			break;
		usleep_range(2000, 2500);
	}
	return alive;
}

/*
 * A power-down that failed (ctrl->lock held), the controller powered
 * again: an AML error or a GPE that could not be enabled may be passing,
 * so it is tried again TB_DOWN_RETRY_MS later; only TB_MAX_DOWN_FAILURES
 * in a row keep it on for good (until tb_macpm.power_down is written).
 */
static void tb_down_failed(struct tb_ctrl *ctrl, const char *reason)
{
	if (++ctrl->down_failed_in_row < TB_MAX_DOWN_FAILURES) {
		schedule_delayed_work(&ctrl->down_retry_work, msecs_to_jiffies(TB_DOWN_RETRY_MS));
		return;
	}
	ctrl->stay_on = reason;
	dev_err(&ctrl->dev, "%u power-downs in a row failed: the controller stays powered\n",
		ctrl->down_failed_in_row);
}

/* XRPE(0)/TRPE(0), then with @xril the poll of XRIL; the plug armed. */
static int tb_set_power_off(struct tb_ctrl *ctrl, bool xril)
{
	/* -EBUSY, not an error: an error would stop runtime PM of the switch */
	if (tb_set_power(ctrl, false)) {
		tb_set_power(ctrl, true);
		if (tb_rp_recover(ctrl) && !tb_upsb_wait(ctrl))
			dev_err(&ctrl->dev, "upstream port %s does not answer after %s(0) failed\n",
				pci_name(ctrl->upsb), ctrl->set_method);
		tb_down_failed(ctrl, tb_down_failed_reason);
		return -EBUSY;
	}

	if (xril && tb_refused(ctrl))
		return -EBUSY;

	if (tb_arm(ctrl)) {
		tb_set_power(ctrl, true);
		tb_down_failed(ctrl, tb_arm_failed_reason);
		return -EBUSY;
	}

	ctrl->down_failed_in_row = 0;
	tb_ctrl_mark_d3cold(ctrl);
	return 0;
}

static int tb_xrpe_off(struct tb_ctrl *ctrl)
{
	return tb_set_power_off(ctrl, true);
}

/*
 * Thunderbolt 3 through TRPE (MacPro7,1) has no XRIL to ask: nothing
 * plugged is what the switch's suspend has just checked (no device router
 * or peer below the root switch, the NHI and every port suspended), and a
 * plug from now on is heard, for the notify is taken whenever it comes
 * (tb_gpe_work()).
 */
static int tb_trpe_off(struct tb_ctrl *ctrl)
{
	return tb_set_power_off(ctrl, false);
}

/* Power the controller and wait until its upstream port answers. */
static int tb_set_power_on(struct tb_ctrl *ctrl)
{
	bool alive;
	int ret;

	ret = tb_set_power(ctrl, true);
	if (ret) {
		/* the rail may be on behind a port left down */
		tb_rp_recover(ctrl);
		ctrl->up_failed_in_row++;
		schedule_work(&ctrl->recover_work);
		return ret;
	}

	alive = tb_upsb_wait(ctrl);
	/* a power-up that left the root port down, not the chip */
	if (!alive && tb_rp_recover(ctrl))
		alive = tb_upsb_wait(ctrl);
	if (!alive) {
		ctrl->errors++;
		/* until tb_macpm.power_down is written (tb_ctrl_param_changed()) */
		if (!ctrl->stay_on)
			ctrl->stay_on = tb_up_failed_reason;
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
 * After a system sleep the controller spent off (see tb_sleep.c): reset
 * the switch, XRPE(0)/TRPE(0) first, for the firmware may have changed it
 * (Apple's powers the controller on resume from S3), then power up.
 */
static int tb_set_power_resume_noirq(struct tb_ctrl *ctrl)
{
	ktime_t start = ktime_get();
	int ret;

	tb_set_power(ctrl, false);
	ret = tb_ctrl_power_on(ctrl);
	if (!ret)
		dev_dbg(&ctrl->dev, "switch reset, powered on in %lld ms before the upstream port's resume_noirq\n",
			ktime_ms_delta(ktime_get(), start));
	return ret;
}

/* tb_macpm.power_down written: try again after a run of refusals or failures. */
static void tb_xrpe_retry(struct tb_ctrl *ctrl)
{
	if (ctrl->stay_on == tb_refused_reason || ctrl->stay_on == tb_down_failed_reason ||
	    ctrl->stay_on == tb_arm_failed_reason)
		ctrl->stay_on = NULL;
	ctrl->refused_in_row = 0;
	ctrl->down_failed_in_row = 0;
}

/* Thunderbolt 1 and 2: XRPE or TRPE, and XRIL polled after a power-down. */
const struct tb_mech_ops tb_xrpe_ops = {
	.off		= tb_xrpe_off,
	.on		= tb_set_power_on,
	.resume_noirq	= tb_set_power_resume_noirq,
	.retry		= tb_xrpe_retry,
};

/* MacPro7,1's Titan Ridge: TRPE alone, with no XRIL. */
const struct tb_mech_ops tb_trpe_ops = {
	.off		= tb_trpe_off,
	.on		= tb_set_power_on,
	.resume_noirq	= tb_set_power_resume_noirq,
	.retry		= tb_xrpe_retry,
};
