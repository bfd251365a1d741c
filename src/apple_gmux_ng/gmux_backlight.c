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
 * level is register 0x74 (24 bits used), its maximum register 0x70. On a
 * Mac with a gmux it is the interface that always works, whichever GPU
 * drives the panel, so the kernel's backlight selection
 * (drivers/acpi/video_detect.c) ranks it above ACPI video, native and
 * vendor interfaces when it detects the gmux by itself. Debian's 6.1 only
 * detects the port I/O kinds; this driver detects all three, so it takes
 * the panel unless the user (acpi_backlight=) or a DMI quirk chose another
 * interface, and then it stays out of the way. The backlight= module
 * parameter overrides both ways.
 *
 * Some T2 gmux report a maximum far above what their LED driver takes;
 * it is capped at 0xffff there, and at 0xffffff elsewhere.
 */

static int gmux_backlight_param = -1;
module_param_named(backlight, gmux_backlight_param, int, 0444);
MODULE_PARM_DESC(backlight,
		 "Register the gmux backlight: -1 = when the gmux is the panel's interface (default), 0 = never, 1 = always");

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
	enum acpi_backlight_type type;
	bool auto_detect;

	if (gmux_backlight_param == 0) {
		*why = "backlight=0";
		return false;
	}
	if (gmux_backlight_param > 0) {
		*why = "backlight=1";
		return true;
	}
	type = __acpi_video_get_backlight_type(false, &auto_detect);
	if (auto_detect) {
		*why = "gmux present";
		return true;
	}
	*why = "acpi_backlight= or a DMI quirk";
	return type == acpi_backlight_apple_gmux;
}

/*
 * Debian's 6.1 apple_bl registers on any Mac with an APP0002 device; as the
 * in-tree gmux driver does, make it step aside once the gmux has the panel.
 * Looked up by name: newer kernels removed the function, and apple_bl
 * stays away by itself there.
 */
static void gmux_backlight_evict_apple_bl(struct device *dev)
{
	void (*unregister)(void) = __symbol_get("apple_bl_unregister");

	if (!unregister)
		return;
	unregister();
	__symbol_put("apple_bl_unregister");
	dev_info(dev, "apple_bl unregistered: the gmux drives the backlight\n");
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

	props.type = BACKLIGHT_RAW;
	props.max_brightness = max;
	ret = regmap_read(gmux->regmap, GMUX_PORT_BRIGHTNESS, &val);
	if (ret)
		return dev_err_probe(dev, ret, "cannot read the brightness\n");
	props.brightness = min_t(unsigned int, val & GMUX_BRIGHTNESS_MASK, max);

	bdev = devm_backlight_device_register(dev, "gmux_backlight", dev, gmux,
					      &gmux_bl_ops, &props);
	if (IS_ERR(bdev))
		return dev_err_probe(dev, PTR_ERR(bdev), "cannot register the backlight\n");
	gmux->bdev = bdev;
	gmux_backlight_evict_apple_bl(dev);
	return 0;
}
