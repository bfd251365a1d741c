// SPDX-License-Identifier: GPL-2.0
/*
 * Mac firmware quirks as data, and the decision which of them applies.
 *
 * Pure C: compiled into the mac_quirks module and the host unit tests
 * (src/lib/tests/test_mac_quirks.c). Only the string helpers that both
 * <linux/string.h> and libc's <string.h> provide may be used here.
 */

#include "macsupport/mac_quirks.h"

/**
 * DOC: Quirk table
 *
 * One row per quirk and group of machines. A row names the machines (DMI
 * model identifiers, a PCI device, ACPI objects), what the module does, the
 * first kernel that handles the quirk itself, and what a user can do where
 * a module cannot. The first matching row of a quirk decides it.
 *
 * Sources (each row's @source): the kernel code that handles a quirk, by
 * file and function, with the commit or bug report that added it; the real
 * Macs' ACPI tables (GPE handlers, _PRW wake GPEs); user reports, said so.
 * Documentation/admin-guide/mac_quirks.rst lists them.
 *
 * GPE storms also reported on Macs but left out, for lack of a model they
 * belong to: 0x17 (on the 2016-2017 MacBook Pros that is the SPI keyboard's
 * GPE, which applespi needs) and 0x15 (the T2 gmux's GPE on MacBookPro15,1).
 * Left out too: XHC1 waking the 2013-2017 MacBook Airs, which only
 * unconfirmed reports name. A row changes what the machine does by default
 * (mac_quirks loads on every Mac): it needs a source.
 *
 * Alpine Ridge sleep (MacBookPro14,1 and 14,2, user reports of 2026). On
 * S3 three things go wrong on a 14,1: thunderbolt.ko's noirq suspend of
 * the NHI puts the whole chip to sleep, so that the PCI core, which saves
 * a bridge's config space after its children's noirq suspend, saves all
 * ones for the upstream and downstream ports and writes them back on
 * resume (75-107 s resumes, the NHI dead, the xHCI gone); with anything
 * plugged in, Apple's EFI disables the Thunderbolt root port in its S3
 * resume path until the next cold boot; and on s2idle the PCI core does
 * not restore the chip's bridges at all. The out-of-tree tb-ar-shim-dkms
 * saves the bridges before the NHI's noirq suspend and restores them on
 * s2idle resume, and has the machine suspend to idle, the one thing that
 * avoids the EFI's part. tb_macpm keeps the PCI core from saving and
 * restoring the all-ones for every Alpine Ridge controller it manages and
 * finds powered at sleep (tb_ctrl_suspend_late(); tested against a model
 * of the chip for S3 only); a module cannot change the default sleep
 * state: the row checks it. On a 14,2
 * both controllers wake the machine from S3 about every 45 s (their PME,
 * through the root ports' and the xHCIs' wake GPEs 0x69/0x6D, as on
 * 14,1's tables): the row turns that wake-up off, at the cost of a
 * Thunderbolt device no longer waking it. Which devices:
 * the ones the owner's fix turns off in /proc/acpi/wakeup (RP05, RP09,
 * XHC2, XHC3, named there as the Thunderbolt ones); their full paths are
 * inferred from 14,1's tables (RP05, XHC2 below its DSB2) and 13,3's (the
 * second controller's xHCI is XHC3), 14,2's own tables not having been
 * read. A path that is not there is reported as absent, not guessed at.
 */

static const char * const mbp11[] = {
	"MacBookPro11,1", "MacBookPro11,2", "MacBookPro11,3", "MacBookPro11,4",
	"MacBookPro11,5", NULL
};

static const char * const mbp11_4_5[] = { "MacBookPro11,4", "MacBookPro11,5", NULL };
static const char * const mbp12_1[] = { "MacBookPro12,1", NULL };
static const char * const mbp14_3[] = { "MacBookPro14,3", NULL };

/* The T2 Macs of load_uefi.c's uefi_skip_cert[] list */
static const char * const t2_macs[] = {
	"MacBookPro15,1", "MacBookPro15,2", "MacBookPro15,3", "MacBookPro15,4",
	"MacBookPro16,1", "MacBookPro16,2", "MacBookPro16,3", "MacBookPro16,4",
	"MacBookAir8,1", "MacBookAir8,2", "MacBookAir9,1", "Macmini8,1",
	"MacPro7,1", "iMac20,1", "iMac20,2", "iMacPro1,1", NULL
};

static const char * const mbp14_1[] = { "MacBookPro14,1", NULL };
static const char * const mbp14_2[] = { "MacBookPro14,2", NULL };

/* MacBookPro11,3's DSDT: LID0 in \_SB (_PRW 0x23), XHC1 under PCI0 (0x0D) */
static const char * const wake_xhc1_lid0[] = { "\\_SB.PCI0.XHC1", "\\_SB.LID0", NULL };

/* the two Alpine Ridge root ports and xHCIs of a MacBookPro14,2 (see above) */
static const char * const wake_ar_14_2[] = {
	"\\_SB.PCI0.RP05", "\\_SB.PCI0.RP09", "\\_SB.PCI0.RP05.UPSB.DSB2.XHC2",
	"\\_SB.PCI0.RP09.UPSB.DSB2.XHC3", NULL
};

/* quirk_apple_poweroff_thunderbolt() looks these up below the upstream port */
static const char * const cr_sx_methods[] = {
	"DSB0.NHI0.SXIO", "DSB0.NHI0.SXFP", "DSB0.NHI0.SXLV", NULL
};

#define PCI_VENDOR_APPLE	0x106b
#define PCI_VENDOR_BROADCOM	0x14e4
#define PCI_VENDOR_INTEL	0x8086

static const struct mac_quirk mac_quirks[] = {
	{
		.id = MAC_QUIRK_GPE_STORM,
		.what = "GPE 0x06 (the iGPU's SCI) fires in a storm and keeps a CPU busy",
		.match = { .products = mbp11 },
		.action = MAC_QUIRK_ACT_MASK_GPE,
		.reach = MAC_QUIRK_MODULE_APPLIES,
		.gpe = 0x06,
		.fix = "acpi_mask_gpe=0x06 masks it from boot on",
		.source =
			"MacBookPro11,3 DSDT _L06; user reports (acpi_mask_gpe=0x06 in NixOS and Manjaro Mac configurations)",
	},
	{
		.id = MAC_QUIRK_GPE_STORM,
		.what = "GPE 0x4E fires in a storm and keeps a CPU busy",
		.match = { .products = mbp12_1 },
		.action = MAC_QUIRK_ACT_MASK_GPE,
		.reach = MAC_QUIRK_MODULE_APPLIES,
		.gpe = 0x4e,
		.fix = "acpi_mask_gpe=0x4e masks it from boot on",
		.source =
			"user reports (acpi_mask_gpe= in NixOS and Manjaro Mac configurations, pedronveloso/macbook_gpe4e_interrupts)",
	},
	{
		.id = MAC_QUIRK_GPE_STORM,
		.what = "GPE 0x07 fires in a storm and keeps a CPU busy",
		.match = { .products = mbp14_3 },
		.action = MAC_QUIRK_ACT_MASK_GPE,
		.reach = MAC_QUIRK_MODULE_APPLIES,
		.gpe = 0x07,
		.fix = "acpi_mask_gpe=0x07 masks it from boot on",
		.source = "user reports (acpi_mask_gpe=0x07 on MacBookPro14,3)",
	},
	{
		.id = MAC_QUIRK_WAKE_SOURCES,
		.what = "XHC1 and LID0 wake the machine right after it suspends",
		.match = { .products = mbp11 },
		.action = MAC_QUIRK_ACT_DISABLE_WAKE,
		.reach = MAC_QUIRK_MODULE_APPLIES,
		.wake = wake_xhc1_lid0,
		.fix =
			"write disabled to power/wakeup of XHC1's and LID0's devices at every boot (/proc/acpi/wakeup toggles)",
		.source = "user reports; MacBookPro11,3 DSDT _PRW of XHC1 (0x0D) and LID0 (0x23)",
	},
	{
		.id = MAC_QUIRK_WAKE_SOURCES,
		.what =
			"the Alpine Ridge Thunderbolt controllers wake the machine from S3 about every 45 s",
		.match = { .products = mbp14_2 },
		.action = MAC_QUIRK_ACT_DISABLE_WAKE,
		.reach = MAC_QUIRK_MODULE_APPLIES,
		.wake = wake_ar_14_2,
		.fix =
			"write disabled to power/wakeup of RP05's, RP09's, XHC2's and XHC3's devices at every boot (/proc/acpi/wakeup toggles)",
		.source =
			"user reports (github.com/omacom/omarchy issue 12194; pull request 12211 turns off RP05, RP09, XHC2, XHC3); paths as in MacBookPro14,1's tables (_PRW 0x69 of RP05, 0x6D of XHC2)",
	},
	{
		.id = MAC_QUIRK_MBP_POWEROFF_WINDOW,
		.what =
			"a window given to 00:1c.0 over 0x7fa00000-0x7fbfffff breaks power-off and suspend",
		.match = {
			.products = mbp11_4_5,
			.pci_vendor = PCI_VENDOR_INTEL, .pci_device = 0x8c10,
			.pci_flags = MAC_QUIRK_PCI_DEVFN, .pci_devfn = 0x1c << 3,
		},
		.action = MAC_QUIRK_ACT_RESERVE,
		.reach = MAC_QUIRK_MODULE_VERIFIES,
		.start = 0x7fa00000,
		.size = 0x200000,
		.covered_since = MAC_QUIRK_KV(4, 13),
		.kernel_fix =
			"arch/x86/pci/fixup.c reserves the range before resources are assigned",
		.fix = "memmap=0x200000$0x7fa00000 keeps the range from being assigned",
		.source =
			"arch/x86/pci/fixup.c quirk_apple_mbp_poweroff(); bugzilla.kernel.org 103211",
	},
	{
		.id = MAC_QUIRK_BCM4331_RESET,
		.what =
			"the EFI leaves the BCM4331 AirPort card running: it DMAs into freed memory",
		.match = { .pci_vendor = PCI_VENDOR_BROADCOM, .pci_device = 0x4331 },
		.reach = MAC_QUIRK_BOOT_ONLY,
		.covered_since = MAC_QUIRK_KV(4, 7),
		/* It also puts the card in D0 first: nothing left to observe afterwards */
		.kernel_fix =
			"arch/x86/kernel/early-quirks.c resets the card at boot, before memory is freed (not observable afterwards)",
		.fix =
			"Linux 4.7 or later; no module can close the window, which ends before modules load",
		.source =
			"arch/x86/kernel/early-quirks.c apple_airport_reset(); commit abb2bafd295f",
	},
	{
		.id = MAC_QUIRK_APPLE_NVME,
		.what =
			"Apple NVMe 106b:2001 resets and loses data with more than one vector or command",
		.match = { .pci_vendor = PCI_VENDOR_APPLE, .pci_device = 0x2001 },
		.reach = MAC_QUIRK_BOOT_ONLY,
		.covered_since = MAC_QUIRK_KV(5, 4),
		.kernel_fix = "the nvme driver's table gives it one vector and a queue depth of 2",
		.fix = "Linux 5.4 or later",
		.source = "drivers/nvme/host/pci.c nvme_id_table (PCI_VENDOR_ID_APPLE)",
	},
	{
		.id = MAC_QUIRK_APPLE_NVME,
		.what = "Apple NVMe 106b:2003",
		.match = { .pci_vendor = PCI_VENDOR_APPLE, .pci_device = 0x2003 },
		.reach = MAC_QUIRK_BOOT_ONLY,
		.covered_since = MAC_QUIRK_KV(3, 3),
		.kernel_fix = "no flags needed: the nvme driver binds it by its class",
		.fix = "Linux 3.3 or later",
		.source = "drivers/nvme/host/pci.c nvme_id_table (PCI_VENDOR_ID_APPLE)",
	},
	{
		.id = MAC_QUIRK_APPLE_NVME,
		.what = "Apple NVMe 106b:2005 (T2) needs 128-byte entries, shared tags, one vector",
		.match = { .pci_vendor = PCI_VENDOR_APPLE, .pci_device = 0x2005 },
		.reach = MAC_QUIRK_BOOT_ONLY,
		.covered_since = MAC_QUIRK_KV(5, 15),
		.kernel_fix =
			"the nvme driver's table carries its four flags (the last, SKIP_CID_GEN, since 5.15)",
		.fix = "Linux 5.15 or later",
		.source = "drivers/nvme/host/pci.c nvme_id_table (PCI_VENDOR_ID_APPLE)",
	},
	{
		.id = MAC_QUIRK_TB_CR_S2IDLE,
		.what =
			"cutting Cactus Ridge's power in s2idle leaves Thunderbolt dead after resume",
		.match = {
			.pci_vendor = PCI_VENDOR_INTEL, .pci_device = 0x1547,
			.pci_flags = MAC_QUIRK_PCI_UPSTREAM_PORT,
			.acpi = cr_sx_methods,
		},
		.reach = MAC_QUIRK_BOOT_ONLY,
		.covered_since = MAC_QUIRK_KV(5, 14),
		.kernel_fix =
			"drivers/pci/quirks.c cuts the power only when suspending through the firmware",
		.fix = "Linux 5.14 or later, or suspend to S3 (mem_sleep_default=deep)",
		.source =
			"drivers/pci/quirks.c quirk_apple_poweroff_thunderbolt(); bugzilla.kernel.org 212767",
	},
	{
		.id = MAC_QUIRK_OSI_DARWIN,
		.what = "Apple's AML takes its working paths only when _OSI(\"Darwin\") is true",
		.action = MAC_QUIRK_ACT_CHECK_OSI,
		.reach = MAC_QUIRK_MODULE_VERIFIES,
		.osi = "Darwin",
		.covered_since = MAC_QUIRK_KV(3, 17),
		.kernel_fix = "drivers/acpi/osi.c answers Darwin on Apple hardware",
		.fix = "remove acpi_osi=!Darwin from the kernel command line",
		.source = "drivers/acpi/osi.c acpi_osi_dmi_darwin(); commit 7bc5a2bad0b8",
	},
	{
		.id = MAC_QUIRK_UEFI_SKIP_CERT,
		.what = "reading db/dbx faults the T2 firmware and disables EFI runtime services",
		.match = { .products = t2_macs },
		.reach = MAC_QUIRK_BOOT_ONLY,
		.covered_since = MAC_QUIRK_KV(5, 19),
		.kernel_fix =
			"security/integrity/platform_certs/load_uefi.c skips the import on T2 Macs",
		.fix = "Linux 5.19 or later",
		.source =
			"security/integrity/platform_certs/load_uefi.c uefi_skip_cert[]; commit 155ca952c7ca",
	},
	{
		.id = MAC_QUIRK_TB_AR_S3,
		.what =
			"S3 kills the Alpine Ridge Thunderbolt controller (and, with a device plugged in, the EFI its root port until a cold boot)",
		.match = { .products = mbp14_1 },
		.action = MAC_QUIRK_ACT_CHECK_S2IDLE,
		.reach = MAC_QUIRK_MODULE_VERIFIES,
		.fix =
			"mem_sleep_default=s2idle (kernel parameter); tb_macpm keeps the all-ones from being saved and restored where it manages the controller",
		.source =
			"user reports (github.com/omacom/omarchy issue 10593, pull requests 10758 and 9899; omacom/omarchy-pkgs pull request 349, tb-ar-shim-dkms)",
	},
};

const struct mac_quirk *mac_quirk_table(size_t *count)
{
	*count = ARRAY_SIZE(mac_quirks);
	return mac_quirks;
}

static bool mac_quirk_product_listed(const char * const *products, const char *product)
{
	if (!products)
		return true;
	if (!product)
		return false;
	for (; *products; products++)
		if (!strcmp(*products, product))
			return true;
	return false;
}

/* Does @q match the machine? Sets *@pci to the matched PCI device. */
static bool mac_quirk_matches(const struct mac_quirk *q, const struct mac_quirk_env *env,
			      void **pci)
{
	const struct mac_quirk_match *m = &q->match;
	const char * const *path;

	*pci = NULL;
	if (!mac_quirk_product_listed(m->products, env->product))
		return false;
	if (m->pci_vendor) {
		if (!env->pci_find)
			return false;
		*pci = env->pci_find(env->ctx, m->pci_vendor, m->pci_device, m->pci_flags,
				     m->pci_devfn);
		if (!*pci)
			return false;
	}
	for (path = m->acpi; path && *path; path++) {
		if (!env->acpi_exists || !env->acpi_exists(env->ctx, *pci, *path)) {
			*pci = NULL;
			return false;
		}
	}
	return true;
}

/*
 * Is what @q's action works on missing from the machine? Then the quirk
 * cannot occur there. What the caller cannot tell counts as present: the
 * action finds out.
 */
static bool mac_quirk_target_absent(const struct mac_quirk *q, const struct mac_quirk_env *env)
{
	const char * const *path;

	switch (q->action) {
	case MAC_QUIRK_ACT_MASK_GPE:
		return env->gpe_exists && !env->gpe_exists(env->ctx, q->gpe);
	case MAC_QUIRK_ACT_DISABLE_WAKE:
		if (!env->acpi_can_wake)
			return false;
		for (path = q->wake; path && *path; path++)
			if (env->acpi_can_wake(env->ctx, *path))
				return false;
		return true;
	default:
		return false;
	}
}

void mac_quirk_decide(enum mac_quirk_id id, const struct mac_quirk_env *env,
		      bool disabled, struct mac_quirk_decision *d)
{
	size_t i;

	memset(d, 0, sizeof(*d));
	d->state = MAC_QUIRK_NOT_APPLICABLE;

	for (i = 0; i < ARRAY_SIZE(mac_quirks); i++) {
		const struct mac_quirk *q = &mac_quirks[i];

		if (q->id != id || !mac_quirk_matches(q, env, &d->pci))
			continue;

		d->row = q;
		if (mac_quirk_target_absent(q, env))
			d->absent = true;	/* state stays not applicable */
		else if (disabled)
			d->state = MAC_QUIRK_DISABLED;
		else if (q->action != MAC_QUIRK_ACT_NONE)
			d->act = true;
		else if (q->covered_since && env->kernel >= q->covered_since)
			d->state = MAC_QUIRK_COVERED;
		else
			d->state = MAC_QUIRK_CANNOT_APPLY;
		return;
	}
}

static const char * const mac_quirk_names[] = {
	[MAC_QUIRK_GPE_STORM]		= "gpe_storm",
	[MAC_QUIRK_WAKE_SOURCES]	= "wake_sources",
	[MAC_QUIRK_MBP_POWEROFF_WINDOW]	= "mbp_poweroff_window",
	[MAC_QUIRK_BCM4331_RESET]	= "bcm4331_reset",
	[MAC_QUIRK_APPLE_NVME]		= "apple_nvme",
	[MAC_QUIRK_TB_CR_S2IDLE]	= "tb_cactus_ridge_s2idle",
	[MAC_QUIRK_OSI_DARWIN]		= "osi_darwin",
	[MAC_QUIRK_UEFI_SKIP_CERT]	= "uefi_skip_cert",
	[MAC_QUIRK_TB_AR_S3]		= "tb_alpine_ridge_s3",
};

const char *mac_quirk_name(enum mac_quirk_id id)
{
	unsigned int i = (unsigned int)id;

	if (i >= ARRAY_SIZE(mac_quirk_names) || !mac_quirk_names[i])
		return "invalid";
	return mac_quirk_names[i];
}

enum mac_quirk_id mac_quirk_by_name(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mac_quirk_names); i++)
		if (mac_quirk_names[i] && strlen(mac_quirk_names[i]) == len &&
		    !strncmp(mac_quirk_names[i], name, len))
			return (enum mac_quirk_id)i;
	return MAC_QUIRK_COUNT;
}

static const char * const mac_quirk_state_names[] = {
	[MAC_QUIRK_NOT_APPLICABLE]	= "not-applicable",
	[MAC_QUIRK_APPLIED]		= "applied",
	[MAC_QUIRK_COVERED]		= "covered",
	[MAC_QUIRK_CANNOT_APPLY]	= "cannot-apply",
	[MAC_QUIRK_DISABLED]		= "disabled",
	[MAC_QUIRK_FAILED]		= "failed",
};

const char *mac_quirk_state_name(enum mac_quirk_state state)
{
	unsigned int i = (unsigned int)state;

	if (i >= ARRAY_SIZE(mac_quirk_state_names) || !mac_quirk_state_names[i])
		return "invalid";
	return mac_quirk_state_names[i];
}
