// SPDX-License-Identifier: GPL-2.0
/*
 * tb_macpm - how a plug is heard while a controller is off
 *
 * Thunderbolt 1 and 2: the GPE that XRIN names, with no method of the
 * firmware's own; XRIL tells a spurious one. Titan Ridge: the firmware's
 * edge-triggered GPE method notifies the NHI. Alpine Ridge: a
 * level-triggered GPE whose method the module runs from its own handler
 * (see the overview in tb_core.c). Arming and disarming, the handlers'
 * work, storms, and the handlers' installation and removal.
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/pm_runtime.h>

#include "tb_macpm.h"

/* More spurious GPEs than this within TB_STORM_WINDOW_MS: a storm. */
#define TB_STORM_MAX		10
#define TB_STORM_WINDOW_MS	10000
/* A spurious GPE is re-enabled after this long. */
#define TB_REARM_MS		100

/* XRIN's GPE in a storm; cleared by writing power_down (tb_plug_retry()). */
#define TB_XRIL_STORM_REASON	"its plug GPE fires while nothing is plugged in (GPE storm); write 1 to tb_macpm.power_down to try again"
static const char tb_xril_storm_reason[] = TB_XRIL_STORM_REASON;

/* Listen for plugs (ctrl->lock held): enable the GPE, or take the notify. */
int tb_arm(struct tb_ctrl *ctrl)
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

/* Stop listening for plugs (ctrl->lock held). */
void tb_disarm(struct tb_ctrl *ctrl)
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
 * Count a GPE that was not a plug (TB1/2: XRIL says nothing is plugged;
 * Alpine Ridge: its method did not flip the plug pad, or any GPE where the
 * pad is not known), in bursts of TB_STORM_WINDOW_MS.
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
			ctrl->stay_on = tb_xril_storm_reason;
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

/*
 * Alpine Ridge: the RX inversion of the plug pad (\_SB.GGII, the
 * firmware's own pad getter), 0 or 1; -1 where the pad is not known or
 * cannot be read.
 */
static int tb_plug_pad_rx(struct tb_ctrl *ctrl)
{
	union acpi_object arg = {
		.integer = { .type = ACPI_TYPE_INTEGER, .value = ctrl->plug_pad },
	};
	struct acpi_object_list args = { .count = 1, .pointer = &arg };
	unsigned long long v;

	if (!ctrl->plug_pad ||
	    ACPI_FAILURE(acpi_evaluate_integer(NULL, "\\_SB.GGII", &args, &v)))
		return -1;
	return v & 1;
}

/*
 * Alpine Ridge's level-triggered plug GPE (see the overview in tb_core.c).
 * The GPE stays disabled from the handler until acpi_finish_gpe(): first
 * the firmware's own method, which flips the plug pad's RX inversion so
 * that the level drops (Apple's _Lxx does that and nothing else under
 * Darwin), then the GPE is cleared and enabled again. A plug or an unplug
 * looks the same here: either way the NHI and the ports are held resumed
 * for a while, and with nothing there the controller goes off again.
 *
 * Storms. A plug or an unplug is a change of the pad's level, and the
 * method flips the pad's inversion after it: the pad is read before and
 * after the method, and only a GPE after which it stands as before (the
 * method flipped nothing, as without _OSI ("Darwin"), and the level that
 * raised the GPE is still there) counts toward a storm. A user plugging
 * and unplugging a cable as fast as a hand can, or a dock renegotiating,
 * flips it every time, and none of that counts. Where the method's AML
 * names no pad (struct tb_ctrl.plug_pad), every GPE counts, as before.
 */
static void tb_level_gpe_work(struct work_struct *work)
{
	struct tb_ctrl *ctrl = container_of(work, struct tb_ctrl, gpe_work);
	ktime_t now = READ_ONCE(ctrl->gpe_time);
	acpi_status status;
	bool flipped;
	int rx;

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
	rx = tb_plug_pad_rx(ctrl);
	status = acpi_evaluate_object(NULL, ctrl->plug_method, NULL, NULL);
	if (ACPI_FAILURE(status)) {
		ctrl->errors++;
		dev_err_ratelimited(&ctrl->dev, "%s failed: %s\n", ctrl->plug_method,
				    acpi_format_exception(status));
	}
	flipped = rx >= 0 && tb_plug_pad_rx(ctrl) == !rx;
	if (!flipped && ctrl->plug_pad)
		ctrl->spurious++;
	if (!flipped && tb_storm(ctrl, now)) {
		/*
		 * Disabled for good, not only for this dispatch: system
		 * resume enables every GPE that has users again.
		 */
		ctrl->plug_storm = true;
		acpi_disable_gpe(NULL, ctrl->plug_gpe);
		ctrl->plug_gpe_on = false;
		acpi_finish_gpe(NULL, ctrl->plug_gpe);
		mutex_unlock(&ctrl->lock);
		dev_warn(&ctrl->dev, "GPE 0x%02x fired %u times in %d ms%s: disabled, the controller stays powered\n",
			 ctrl->plug_gpe, TB_STORM_MAX + 1, TB_STORM_WINDOW_MS,
			 ctrl->plug_pad ? " with its method flipping no pad" : "");
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

/* Set up plug handling; XRIN's GPE gets the module's handler here. */
void tb_plug_init(struct tb_ctrl *ctrl)
{
	acpi_status status;

	INIT_WORK(&ctrl->gpe_work, ctrl->own_gpe ? tb_level_gpe_work : tb_gpe_work);
	INIT_DELAYED_WORK(&ctrl->rearm_work, tb_rearm_work);
	if (!ctrl->has_gpe)
		return;
	status = acpi_install_gpe_handler(NULL, ctrl->gpe, tb_gpe_type(ctrl->gpe),
					  tb_gpe_handler, ctrl);
	if (ACPI_FAILURE(status)) {
		ctrl->has_gpe = false;
		ctrl->stay_on = "its plug GPE handler cannot be installed";
		dev_err(&ctrl->dev, "cannot install a handler for GPE 0x%02x: %s\n", ctrl->gpe,
			acpi_format_exception(status));
	}
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

/* Remove the handlers (tb_ctrl_power_exit(), disarmed and dying). */
void tb_plug_remove(struct tb_ctrl *ctrl)
{
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
}

/* tb_macpm.power_down written (ctrl->lock held). */
void tb_plug_retry(struct tb_ctrl *ctrl)
{
	/*
	 * XRIN's GPE after a storm: the controller is on and the GPE
	 * disarmed; the next power-down arms it again
	 */
	if (ctrl->stay_on == tb_xril_storm_reason) {
		ctrl->stay_on = NULL;
		ctrl->storm_count = 0;
	}
	/* Alpine Ridge after a storm: the GPE enabled again */
	if (!ctrl->plug_storm || ctrl->dying)
		return;
	ctrl->plug_storm = false;
	ctrl->storm_count = 0;
	if (ACPI_SUCCESS(acpi_enable_gpe(NULL, ctrl->plug_gpe)))
		ctrl->plug_gpe_on = true;
	else
		dev_err(&ctrl->dev, "cannot enable GPE 0x%02x again\n", ctrl->plug_gpe);
}
