// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - backlight
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include <linux/backlight.h>
#include <linux/module.h>
#include <acpi/video.h>

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
 * Some T2 gmux report a maximum far above what their LED driver takes;
 * it is capped at 0xffff there, and at 0xffffff elsewhere.
 */

static int gmux_backlight_param = -1;
module_param_named(backlight, gmux_backlight_param, int, 0444);
MODULE_PARM_DESC(backlight,
		 "Register the gmux backlight: -1 = when the kernel's backlight choice is the gmux (default), 0 = never, 1 = always");
MODULE_SOFTDEP("pre: apple_bl");

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

/* Whether the gmux should drive the panel; @why says why for the log. */
static bool gmux_backlight_wanted(const char **why)
{
	if (gmux_backlight_param == 0) {
		*why = "backlight=0";
		return false;
	}
	if (gmux_backlight_param > 0) {
		*why = "backlight=1";
		return true;
	}
	switch (acpi_video_get_backlight_type()) {
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

/* Devres action: register apple_bl again if it was evicted. */
static void gmux_backlight_give_back_apple_bl(void *data)
{
	struct apple_gmux_ng *gmux = data;
	int ret;

	if (!gmux->apple_bl_register)
		return;
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
	unsigned int max, val;
	const char *why;
	int ret;

	if (!gmux_backlight_wanted(&why)) {
		dev_info(dev, "backlight left to another interface (%s)\n", why);
		return 0;
	}

	ret = regmap_read(gmux->regmap, GMUX_PORT_MAX_BRIGHTNESS, &max);
	if (ret)
		return dev_err_probe(dev, ret, "cannot read the maximum brightness\n");
	if (gmux->io.kind == MAC_GMUX_T2)
		max = min_t(unsigned int, max, GMUX_T2_MAX_BRIGHTNESS);
	else
		max = min_t(unsigned int, max, GMUX_MAX_BRIGHTNESS);
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
	bdev = devm_backlight_device_register(dev, "gmux_backlight", dev, gmux,
					      &gmux_bl_ops, &props);
	if (IS_ERR(bdev))
		return dev_err_probe(dev, PTR_ERR(bdev), "cannot register the backlight\n");
	gmux->bdev = bdev;
	gmux_backlight_evict_apple_bl(gmux);
	return 0;
}
