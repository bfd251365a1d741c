// SPDX-License-Identifier: GPL-2.0
/*
 * macsupport_test_backlight - TEST ONLY: steer the kernel's backlight choice
 *
 * The kernel picks one backlight interface per machine
 * (drivers/acpi/video_detect.c, in video.ko): from the acpi_backlight= boot
 * option, DMI quirks, the gmux it detects, ACPI video, or a GPU driver's
 * native backlight (native_available is set once a GPU driver such as i915
 * asks acpi_video_backlight_use_native()). video.ko reads the boot option
 * once, at its first query. A guest test that wants another choice unloads
 * video.ko and loads this module with:
 *
 * - acpi_backlight=STR: copied to where the kernel keeps the boot option
 *   (acpi_video_backlight_string) before video.ko's first query, as if
 *   given at boot; the old value is put back at unload;
 * - native=1: do what a GPU driver with a native backlight does: ask
 *   acpi_video_backlight_use_native() and, if told yes, register a raw
 *   backlight "test_native_backlight" (stand-in for intel_backlight).
 *
 * The parameter "choice" then reads the kernel's choice
 * (acpi_video_get_backlight_type()): vendor, video, native, apple_gmux,
 * none, ... Never installed by DKMS, never loaded outside QEMU.
 */

#include <linux/acpi.h>
#include <linux/backlight.h>
#include <linux/module.h>
#include <linux/string.h>
#include <acpi/video.h>

#include "macsupport/acpi_backlight.h"

static char *acpi_backlight;
module_param(acpi_backlight, charp, 0444);
MODULE_PARM_DESC(acpi_backlight, "TEST ONLY: act as if acpi_backlight=STR had been given at boot");

static bool native;
module_param(native, bool, 0444);
MODULE_PARM_DESC(native, "TEST ONLY: ask for a native backlight, as a GPU driver does");

static char choice[16] = "unknown";
module_param_string(choice, choice, sizeof(choice), 0444);
MODULE_PARM_DESC(choice, "The kernel's backlight choice after loading (read only)");

static char saved[16];
static struct backlight_device *test_bdev;

static int test_bl_update_status(struct backlight_device *bd)
{
	return 0;
}

static const struct backlight_ops test_bl_ops = {
	.update_status	= test_bl_update_status,
};

static int __init test_backlight_init(void)
{
	struct backlight_properties props = {
		.type = BACKLIGHT_RAW,
		.max_brightness = 100,
		.brightness = 50,
	};

	strscpy(saved, acpi_video_backlight_string, sizeof(saved));
	if (acpi_backlight)
		strscpy(acpi_video_backlight_string, acpi_backlight, sizeof(saved));
	if (native && acpi_video_backlight_use_native()) {
		test_bdev = backlight_device_register("test_native_backlight", NULL, NULL,
						      &test_bl_ops, &props);
		if (IS_ERR(test_bdev)) {
			strscpy(acpi_video_backlight_string, saved, sizeof(saved));
			return PTR_ERR(test_bdev);
		}
	}
	strscpy(choice, macsupport_backlight_type_name(acpi_video_get_backlight_type()),
		sizeof(choice));
	pr_info("macsupport_test_backlight: acpi_backlight=%s native=%d: the kernel chose %s\n",
		acpi_video_backlight_string, native, choice);
	return 0;
}
module_init(test_backlight_init);

static void __exit test_backlight_exit(void)
{
	backlight_device_unregister(test_bdev);
	strscpy(acpi_video_backlight_string, saved, sizeof(saved));
}
module_exit(test_backlight_exit);

MODULE_DESCRIPTION("TEST ONLY: steer the kernel's backlight choice in QEMU guests");
MODULE_LICENSE("GPL");
