// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - backlight
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include <linux/acpi.h>
#include <linux/backlight.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/kernfs.h>
#include <linux/module.h>
#include <acpi/video.h>

#include "macsupport/acpi_backlight.h"
#include "gmux.h"

/**
 * DOC: Backlight control
 *
 * The gmux drives the panel's LED driver (TI LP8543/LP8545/LP8548): the
 * level is register 0x74 (24 bits used), its maximum register 0x70. The
 * kernel picks one backlight interface per machine
 * (acpi_video_get_backlight_type(), drivers/acpi/video_detect.c); the gmux
 * registers its backlight only when that choice is the gmux
 * (acpi_backlight_apple_gmux: the kernel detected a port I/O gmux, or the
 * user gave acpi_backlight=apple_gmux) or, on kernels whose detection
 * knows only the port I/O gmux (6.1: see MACSUPPORT_GMUX_BACKLIGHT_ON_VENDOR
 * in compat.h), the vendor interface, which the gmux is there. Any other
 * choice (native, video, none) belongs to another driver: a T2 Mac on 6.1
 * would otherwise get i915's backlight and the gmux's for one panel. The
 * backlight= module parameter overrides the choice both ways.
 *
 * "vendor" is not final: it only means that no GPU driver has asked for a
 * native backlight yet. When the gmux registered on "vendor" and another
 * backlight registers later (i915 probing after the gmux), the kernel's
 * choice is read again; if it is no longer one the gmux registers on, the
 * gmux backlight is withdrawn (with one line in the log). apple_bl, a
 * vendor interface, is given back then only if the choice is "vendor"
 * again (on 6.1 it registers whatever the choice: given back on a native
 * choice, it would be a second backlight for the panel); otherwise it
 * comes back on unload. A backlight forced with backlight=1 is never
 * withdrawn.
 *
 * The type is BACKLIGHT_PLATFORM, as mainline's: user space prefers
 * firmware and platform interfaces over raw ones, and would pick a raw gmux
 * backlight last although it is the one that works.
 *
 * Debian's 6.1 apple_bl registers on any Mac with an APP0002 device. Once
 * the gmux has the panel, apple_bl's driver is unregistered, and registered
 * again when the gmux backlight goes away (unbind, unload, or a probe that
 * fails later on); apple_bl cannot be unloaded meanwhile. The module
 * declares MODULE_SOFTDEP("pre: apple_bl"), so that apple_bl is there to be
 * evicted instead of turning up afterwards.
 *
 * The maximum is what register 0x70 reports (at most 0xffffff), except on
 * a T2 gmux: there it is 0xffff whatever the register says, as in the
 * in-tree driver since 6.5, which found T2 iMacs reporting 0x3ff for a
 * panel that takes 0..0xffff. The T2 MacBook Pros report 0xffff, and
 * their firmware's brightness method (ABCM) writes 0..0xffff itself.
 */

static int gmux_backlight_param = -1;
module_param_named(backlight, gmux_backlight_param, int, 0444);
MODULE_PARM_DESC(backlight,
		 "Register the gmux backlight: -1 = when the kernel's backlight choice is the gmux (default), 0 = never, 1 = always");
MODULE_SOFTDEP("pre: apple_bl");

/* apple_bl's acpi_driver, as it names itself in /sys/bus/acpi/drivers */
#define APPLE_BL_DRIVER_NAME	"Apple backlight"

static int gmux_bl_get_brightness(struct backlight_device *bd)
{
	struct apple_gmux_ng *gmux = bl_get_data(bd);
	unsigned int val;
	int ret;

	ret = regmap_read(gmux->regmap, GMUX_PORT_BRIGHTNESS, &val);
	if (ret)
		return ret;
	return val & GMUX_BRIGHTNESS_MASK;
}

static int gmux_bl_update_status(struct backlight_device *bd)
{
	struct apple_gmux_ng *gmux = bl_get_data(bd);

	return regmap_write(gmux->regmap, GMUX_PORT_BRIGHTNESS, backlight_get_brightness(bd));
}

static const struct backlight_ops gmux_bl_ops = {
	.options	= BL_CORE_SUSPENDRESUME,
	.get_brightness	= gmux_bl_get_brightness,
	.update_status	= gmux_bl_update_status,
};

/* Whether the kernel's choice @type is the gmux; @why says why for the log. */
static bool gmux_backlight_type_wanted(enum acpi_backlight_type type, const char **why)
{
	switch (type) {
	case acpi_backlight_apple_gmux:
		*why = "the kernel chose the gmux";
		return true;
	case acpi_backlight_vendor:
		*why = "the kernel chose the vendor interface";
		return MACSUPPORT_GMUX_BACKLIGHT_ON_VENDOR;
	case acpi_backlight_native:
		*why = "the kernel chose the GPU's native backlight";
		return false;
	case acpi_backlight_video:
		*why = "the kernel chose ACPI video";
		return false;
	case acpi_backlight_none:
		*why = "acpi_backlight=none";
		return false;
	default:
		*why = "the kernel chose another interface";
		return false;
	}
}

/*
 * Whether the gmux should drive the panel; @why says why for the log.
 * @type is the kernel's choice, or acpi_backlight_undef when backlight=
 * decided.
 */
static bool gmux_backlight_wanted(enum acpi_backlight_type *type, const char **why)
{
	*type = acpi_backlight_undef;
	if (gmux_backlight_param == 0) {
		*why = "backlight=0";
		return false;
	}
	if (gmux_backlight_param > 0) {
		*why = "backlight=1";
		return true;
	}
	*type = acpi_video_get_backlight_type();
	return gmux_backlight_type_wanted(*type, why);
}

/**
 * gmux_backlight_registered() - whether the gmux backlight is registered
 * @gmux: the gmux
 *
 * Return: true while the gmux drives the panel's backlight.
 */
bool gmux_backlight_registered(struct apple_gmux_ng *gmux)
{
	bool ret;

	mutex_lock(&gmux->bl_lock);
	ret = gmux->bdev;
	mutex_unlock(&gmux->bl_lock);
	return ret;
}

/**
 * gmux_backlight_refresh() - write the backlight level to the gmux again
 * @gmux: the gmux
 *
 * For a gmux that missed the level (it did not answer at resume). Does
 * nothing when the gmux backlight is not registered.
 */
void gmux_backlight_refresh(struct apple_gmux_ng *gmux)
{
	mutex_lock(&gmux->bl_lock);
	if (gmux->bdev)
		backlight_update_status(gmux->bdev);
	mutex_unlock(&gmux->bl_lock);
}

/* Take the backlight away from whoever might still use it, and unregister it. */
static bool gmux_backlight_remove(struct apple_gmux_ng *gmux)
{
	struct backlight_device *bdev;

	mutex_lock(&gmux->bl_lock);
	bdev = gmux->bdev;
	gmux->bdev = NULL;
	mutex_unlock(&gmux->bl_lock);
	backlight_device_unregister(bdev);
	return bdev;
}

/* Devres action: unregister the backlight unless it was withdrawn. */
static void gmux_backlight_release(void *data)
{
	gmux_backlight_remove(data);
}

/*
 * The driver core of 6.1 takes a driver's directory out of sysfs only when
 * the driver's kobject is released, which CONFIG_DEBUG_KOBJECT_RELEASE (or
 * a reference still held elsewhere) delays. Registering apple_bl again
 * meanwhile fails with -EEXIST and leaves apple_bl believing it is
 * registered, so that its next unregistration WARNs. driver_find() cannot
 * tell (it skips a dying kobject): look for the directory itself,
 * /sys/bus/acpi/drivers/<name>, found through the gmux's ACPI companion.
 */
static bool gmux_apple_bl_in_sysfs(struct apple_gmux_ng *gmux)
{
	struct acpi_device *adev = ACPI_COMPANION(&gmux->pnp->dev);
	struct kernfs_node *drivers, *kn;
	struct kset *bus;
	bool found;

	if (!adev || !adev->dev.bus)
		return false;
	bus = bus_get_kset(adev->dev.bus);
	if (!bus || !bus->kobj.sd)
		return false;
	drivers = kernfs_find_and_get(bus->kobj.sd, "drivers");
	if (!drivers)
		return false;
	kn = kernfs_find_and_get(drivers, APPLE_BL_DRIVER_NAME);
	found = kn;
	kernfs_put(kn);
	kernfs_put(drivers);
	return found;
}

/* Wait, bounded (5 s), until the old directory is gone: at once normally. */
static void gmux_backlight_wait_apple_bl_gone(struct apple_gmux_ng *gmux)
{
	unsigned int i;

	for (i = 0; i < 50 && gmux_apple_bl_in_sysfs(gmux); i++)
		msleep(100);
}

/* Devres action: register apple_bl again if it was evicted. */
static void gmux_backlight_give_back_apple_bl(void *data)
{
	struct apple_gmux_ng *gmux = data;
	int ret;

	if (!gmux->apple_bl_register)
		return;
	gmux_backlight_wait_apple_bl_gone(gmux);
	ret = gmux->apple_bl_register();
	symbol_put_addr(gmux->apple_bl_register);
	gmux->apple_bl_register = NULL;
	if (ret)
		dev_warn(&gmux->pnp->dev, "cannot give the backlight back to apple_bl: %pe\n",
			 ERR_PTR(ret));
	else
		dev_info(&gmux->pnp->dev, "apple_bl registered again\n");
}

/*
 * Make Debian's 6.1 apple_bl step aside, as its in-tree gmux driver does.
 * Looked up by name: newer kernels removed the functions, and apple_bl
 * stays away by itself there. apple_bl_register() is held (and with it
 * the apple_bl module) until gmux_backlight_give_back_apple_bl().
 */
static void gmux_backlight_evict_apple_bl(struct apple_gmux_ng *gmux)
{
	void (*unregister)(void);
	int (*reg)(void);

	unregister = __symbol_get("apple_bl_unregister");
	if (!unregister)
		return;
	reg = __symbol_get("apple_bl_register");
	if (reg) {
		unregister();
		gmux->apple_bl_register = reg;
		dev_info(&gmux->pnp->dev, "apple_bl unregistered: the gmux drives the backlight\n");
	}
	symbol_put_addr(unregister);
}

/*
 * Another backlight registered: if the kernel's choice moved away from the
 * gmux (a GPU driver asked for native after the gmux registered on
 * "vendor"), withdraw the gmux backlight. Runs as work: the notifier is
 * called from backlight_device_register() with the notifier chain's lock
 * held, and unregistering a backlight calls the same chain again.
 */
static void gmux_backlight_withdraw_work(struct work_struct *work)
{
	struct apple_gmux_ng *gmux = container_of(work, struct apple_gmux_ng,
						  bl_withdraw_work);
	enum acpi_backlight_type type = acpi_video_get_backlight_type();
	const char *why;

	if (gmux_backlight_type_wanted(type, &why))
		return;
	if (!gmux_backlight_remove(gmux))
		return;
	dev_info(&gmux->pnp->dev, "the kernel now chose %s: gmux backlight withdrawn%s\n",
		 macsupport_backlight_type_name(type),
		 type == acpi_backlight_vendor || !gmux->apple_bl_register ? "" :
		 "; apple_bl stays unregistered until unload");
	/* apple_bl is a vendor interface: back only if the choice is vendor. */
	if (type == acpi_backlight_vendor)
		gmux_backlight_give_back_apple_bl(gmux);
}

static int gmux_backlight_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct apple_gmux_ng *gmux = container_of(nb, struct apple_gmux_ng, bl_nb);
	struct backlight_device *bd = data;

	if (action == MACSUPPORT_BACKLIGHT_REGISTERED && bd->dev.parent != &gmux->pnp->dev)
		schedule_work(&gmux->bl_withdraw_work);
	return NOTIFY_DONE;
}

/* Devres action: stop watching, then wait for a withdrawal under way. */
static void gmux_backlight_unwatch(void *data)
{
	struct apple_gmux_ng *gmux = data;

	macsupport_backlight_unregister_notifier(&gmux->bl_nb);
	cancel_work_sync(&gmux->bl_withdraw_work);
}

/*
 * The backlight stands on the "vendor" choice: watch for a native backlight
 * that changes it. A backlight registered before the notifier is caught by
 * the check queued at the end.
 */
static int gmux_backlight_watch(struct apple_gmux_ng *gmux)
{
	struct device *dev = &gmux->pnp->dev;
	int ret;

	gmux->bl_nb.notifier_call = gmux_backlight_notify;
	ret = macsupport_backlight_register_notifier(&gmux->bl_nb);
	if (ret)
		return dev_err_probe(dev, ret, "cannot watch for other backlights\n");
	ret = devm_add_action_or_reset(dev, gmux_backlight_unwatch, gmux);
	if (ret)
		return ret;
	schedule_work(&gmux->bl_withdraw_work);
	return 0;
}

/**
 * gmux_backlight_init() - register the gmux backlight where it belongs
 * @gmux: the gmux, with its regmap ready
 *
 * Return: 0 (also when the backlight is left to another interface), or a
 * negative errno when the gmux could not be read or registration failed.
 */
int gmux_backlight_init(struct apple_gmux_ng *gmux)
{
	struct device *dev = &gmux->pnp->dev;
	struct backlight_properties props = { };
	struct backlight_device *bdev;
	enum acpi_backlight_type type;
	unsigned int max, val;
	const char *why;
	int ret;

	mutex_init(&gmux->bl_lock);
	INIT_WORK(&gmux->bl_withdraw_work, gmux_backlight_withdraw_work);
	if (!gmux_backlight_wanted(&type, &why)) {
		dev_info(dev, "backlight left to another interface (%s)\n", why);
		return 0;
	}

	ret = regmap_read(gmux->regmap, GMUX_PORT_MAX_BRIGHTNESS, &max);
	if (ret)
		return dev_err_probe(dev, ret, "cannot read the maximum brightness\n");
	if (gmux->io.kind == MAC_GMUX_T2) {
		if (max != GMUX_T2_MAX_BRIGHTNESS)
			dev_info(dev, "gmux reports a maximum brightness of %#x; T2 gmux take 0..%#x\n",
				 max, GMUX_T2_MAX_BRIGHTNESS);
		max = GMUX_T2_MAX_BRIGHTNESS;
	} else {
		max = min_t(unsigned int, max, GMUX_MAX_BRIGHTNESS);
	}
	if (!max) {
		dev_warn(dev, "gmux reports a maximum brightness of 0, no backlight\n");
		return 0;
	}
	gmux->max_brightness = max;

	props.type = BACKLIGHT_PLATFORM;
	props.max_brightness = max;
	ret = regmap_read(gmux->regmap, GMUX_PORT_BRIGHTNESS, &val);
	if (ret)
		return dev_err_probe(dev, ret, "cannot read the brightness\n");
	props.brightness = min_t(unsigned int, val & GMUX_BRIGHTNESS_MASK, max);

	/* before the backlight, so that it is undone after it */
	ret = devm_add_action_or_reset(dev, gmux_backlight_give_back_apple_bl, gmux);
	if (ret)
		return ret;
	/* not devm: the withdrawal unregisters it while the device stays bound */
	bdev = backlight_device_register("gmux_backlight", dev, gmux, &gmux_bl_ops, &props);
	if (IS_ERR(bdev))
		return dev_err_probe(dev, PTR_ERR(bdev), "cannot register the backlight\n");
	gmux->bdev = bdev;
	ret = devm_add_action_or_reset(dev, gmux_backlight_release, gmux);
	if (ret)
		return ret;
	gmux_backlight_evict_apple_bl(gmux);
	if (type == acpi_backlight_vendor)
		return gmux_backlight_watch(gmux);
	return 0;
}
