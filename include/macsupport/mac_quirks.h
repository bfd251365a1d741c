/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mac firmware quirks as data, and the decision which of them applies.
 *
 * Pure C (src/lib/mac_quirks.c), shared by the mac_quirks module and the
 * host unit tests. The module supplies what only the kernel knows (PCI
 * devices, ACPI objects) through struct mac_quirk_env and carries out the
 * actions; this core only matches and decides.
 */
#ifndef MACSUPPORT_MAC_QUIRKS_H
#define MACSUPPORT_MAC_QUIRKS_H

#include "lib_types.h"

/**
 * enum mac_quirk_id - the quirks, one sysfs file and one name each
 * @MAC_QUIRK_GPE_STORM: mask a GPE that storms on the model ("gpe_storm")
 * @MAC_QUIRK_WAKE_SOURCES: disable wake-up by devices that wake the model
 *	right after suspend ("wake_sources")
 * @MAC_QUIRK_MBP_POWEROFF_WINDOW: keep 0x7fa00000-0x7fbfffff reserved on
 *	MacBookPro11,4/11,5 ("mbp_poweroff_window")
 * @MAC_QUIRK_BCM4331_RESET: the early reset of the AirPort card the EFI
 *	leaves running ("bcm4331_reset")
 * @MAC_QUIRK_APPLE_NVME: the nvme driver's flags for Apple controllers
 *	("apple_nvme")
 * @MAC_QUIRK_TB_CR_S2IDLE: no Thunderbolt power cut under s2idle on
 *	Cactus Ridge ("tb_cactus_ridge_s2idle")
 * @MAC_QUIRK_OSI_DARWIN: _OSI("Darwin") answered true ("osi_darwin")
 * @MAC_QUIRK_UEFI_SKIP_CERT: no db/dbx import on T2 Macs ("uefi_skip_cert")
 * @MAC_QUIRK_TB_AR_S3: S3 leaves the Alpine Ridge controller dead
 *	("tb_alpine_ridge_s3")
 * @MAC_QUIRK_COUNT: number of quirks
 */
enum mac_quirk_id {
	MAC_QUIRK_GPE_STORM,
	MAC_QUIRK_WAKE_SOURCES,
	MAC_QUIRK_MBP_POWEROFF_WINDOW,
	MAC_QUIRK_BCM4331_RESET,
	MAC_QUIRK_APPLE_NVME,
	MAC_QUIRK_TB_CR_S2IDLE,
	MAC_QUIRK_OSI_DARWIN,
	MAC_QUIRK_UEFI_SKIP_CERT,
	MAC_QUIRK_TB_AR_S3,
	MAC_QUIRK_COUNT,
};

/**
 * enum mac_quirk_action - what the module does with a row that matches
 * @MAC_QUIRK_ACT_NONE: nothing: the kernel covers it or it cannot be done
 *	after boot; the decision rests on @covered_since alone
 * @MAC_QUIRK_ACT_MASK_GPE: mask GPE @gpe (acpi_mask_gpe())
 * @MAC_QUIRK_ACT_DISABLE_WAKE: turn off wake-up of the ACPI devices @wake
 * @MAC_QUIRK_ACT_RESERVE: check that [@start, @start + @size) is reserved
 *	and empty; reserve it if nothing sits in it
 * @MAC_QUIRK_ACT_CHECK_OSI: evaluate _OSI(@osi), which must answer true
 * @MAC_QUIRK_ACT_CHECK_S2IDLE: the machine must suspend to idle by default
 *	(mem_sleep_default=s2idle), not to S3
 */
enum mac_quirk_action {
	MAC_QUIRK_ACT_NONE,
	MAC_QUIRK_ACT_MASK_GPE,
	MAC_QUIRK_ACT_DISABLE_WAKE,
	MAC_QUIRK_ACT_RESERVE,
	MAC_QUIRK_ACT_CHECK_OSI,
	MAC_QUIRK_ACT_CHECK_S2IDLE,
};

/**
 * enum mac_quirk_reach - whether a module can do the quirk after boot
 * @MAC_QUIRK_MODULE_APPLIES: yes, through exported interfaces
 * @MAC_QUIRK_MODULE_VERIFIES: the kernel does it at boot; the module can
 *	check that it happened (and, for a reservation, make up for it)
 * @MAC_QUIRK_BOOT_ONLY: only the kernel can, at boot; the module reports
 */
enum mac_quirk_reach {
	MAC_QUIRK_MODULE_APPLIES,
	MAC_QUIRK_MODULE_VERIFIES,
	MAC_QUIRK_BOOT_ONLY,
};

/**
 * enum mac_quirk_state - the decision recorded for a quirk
 * @MAC_QUIRK_NOT_APPLICABLE: no row matches this machine, or one does but
 *	what its action works on (the GPE, the wake devices) does not exist
 *	here, so the quirk cannot occur
 * @MAC_QUIRK_APPLIED: the module applied it
 * @MAC_QUIRK_COVERED: the running kernel already handles it (checked where
 *	the row says how)
 * @MAC_QUIRK_CANNOT_APPLY: it applies, but cannot be done after boot: the
 *	reason says what would do it
 * @MAC_QUIRK_DISABLED: turned off by the module parameter
 * @MAC_QUIRK_FAILED: applying or checking it was tried and did not take
 *	effect
 */
enum mac_quirk_state {
	MAC_QUIRK_NOT_APPLICABLE,
	MAC_QUIRK_APPLIED,
	MAC_QUIRK_COVERED,
	MAC_QUIRK_CANNOT_APPLY,
	MAC_QUIRK_DISABLED,
	MAC_QUIRK_FAILED,
};

/* Flags of struct mac_quirk_match */
#define MAC_QUIRK_PCI_UPSTREAM_PORT	0x1	/* the PCI device is a PCIe upstream port */
#define MAC_QUIRK_PCI_DEVFN		0x2	/* ... and sits at bus 0, @pci_devfn */

/* A kernel version as LINUX_VERSION_CODE encodes it. */
#define MAC_QUIRK_KV(a, b)	(((a) << 16) + ((b) << 8))

/**
 * struct mac_quirk_match - which machines a row is for
 * @products: DMI product names (model identifiers), NULL-terminated; NULL
 *	for every Apple machine
 * @pci_vendor: PCI vendor ID a device must have, 0 for no PCI condition
 * @pci_device: its device ID
 * @pci_flags: MAC_QUIRK_PCI_* conditions on that device
 * @pci_devfn: its devfn on bus 0 with %MAC_QUIRK_PCI_DEVFN
 * @acpi: ACPI objects that must exist, NULL-terminated: relative to the
 *	matched PCI device's ACPI companion, or absolute when they start with
 *	a backslash
 *
 * Every machine is an Apple machine here: the module stays inert elsewhere.
 */
struct mac_quirk_match {
	const char * const *products;
	u16 pci_vendor;
	u16 pci_device;
	unsigned int pci_flags;
	unsigned int pci_devfn;
	const char * const *acpi;
};

/**
 * struct mac_quirk - one row of the quirk table
 * @id: which quirk
 * @what: what goes wrong, one line
 * @match: the machines it is for
 * @action: what the module does when it matches
 * @reach: whether a module can do it after boot
 * @gpe: the GPE for %MAC_QUIRK_ACT_MASK_GPE
 * @wake: ACPI paths for %MAC_QUIRK_ACT_DISABLE_WAKE, NULL-terminated
 * @start: start of the range for %MAC_QUIRK_ACT_RESERVE
 * @size: its size
 * @osi: the _OSI string for %MAC_QUIRK_ACT_CHECK_OSI
 * @covered_since: first kernel (MAC_QUIRK_KV()) that handles it itself;
 *	0 if no kernel does
 * @kernel_fix: what the kernel does and where, when @covered_since is set
 * @fix: what the user can do where the module cannot: a kernel parameter,
 *	or the kernel version to run
 * @source: where the facts come from
 */
struct mac_quirk {
	enum mac_quirk_id id;
	const char *what;
	struct mac_quirk_match match;
	enum mac_quirk_action action;
	enum mac_quirk_reach reach;
	unsigned int gpe;
	const char * const *wake;
	u64 start;
	u64 size;
	const char *osi;
	unsigned int covered_since;
	const char *kernel_fix;
	const char *fix;
	const char *source;
};

/**
 * struct mac_quirk_env - the machine, as the caller sees it
 * @product: DMI product name
 * @kernel: the running kernel's version (LINUX_VERSION_CODE)
 * @pci_find: find a PCI device with @vendor:@device satisfying @flags and
 *	@devfn; return an opaque handle (the caller keeps it valid until it
 *	is done with the decision) or NULL
 * @acpi_exists: whether ACPI object @path exists, relative to @pci (the
 *	handle pci_find() returned) unless @path is absolute
 * @gpe_exists: whether the machine has GPE @gpe; NULL where the caller
 *	cannot tell (the action then finds out)
 * @acpi_can_wake: whether ACPI device @path (absolute) exists and can wake
 *	the machine (it has a valid _PRW); NULL where the caller cannot tell
 * @ctx: passed to every callback
 */
struct mac_quirk_env {
	const char *product;
	unsigned int kernel;
	void *(*pci_find)(void *ctx, u16 vendor, u16 device, unsigned int flags,
			  unsigned int devfn);
	bool (*acpi_exists)(void *ctx, void *pci, const char *path);
	bool (*gpe_exists)(void *ctx, unsigned int gpe);
	bool (*acpi_can_wake)(void *ctx, const char *path);
	void *ctx;
};

/**
 * struct mac_quirk_decision - what mac_quirk_decide() found
 * @state: %MAC_QUIRK_NOT_APPLICABLE, %MAC_QUIRK_COVERED,
 *	%MAC_QUIRK_CANNOT_APPLY or %MAC_QUIRK_DISABLED; meaningless with @act
 * @act: the caller must now do @row's action and record the outcome
 * @absent: @row matches the machine, but what its action works on is not
 *	there (its GPE, or every one of its wake devices): the quirk cannot
 *	occur, @state is %MAC_QUIRK_NOT_APPLICABLE
 * @row: the matching row, or NULL
 * @pci: the PCI device the row matched, or NULL
 */
struct mac_quirk_decision {
	enum mac_quirk_state state;
	bool act;
	bool absent;
	const struct mac_quirk *row;
	void *pci;
};

/**
 * mac_quirk_table() - the quirk table
 * @count: set to the number of rows
 *
 * Return: the rows, in the order they are tried; the first row of a quirk
 * that matches decides it.
 */
const struct mac_quirk *mac_quirk_table(size_t *count);

/**
 * mac_quirk_decide() - decide one quirk for a machine
 * @id: the quirk
 * @env: the machine
 * @disabled: the user turned the quirk off
 * @d: the decision
 *
 * A row matches when the product is listed (or none is), the PCI device
 * exists and every ACPI object exists. A matching row whose action works on
 * something the machine does not have (a GPE it lacks, wake devices none of
 * which exists or can wake it) is not applicable, @d->absent set: the
 * quirk cannot occur, whether or not it is disabled. For a matching row
 * with an action, @d->act tells the caller to do it (also where the kernel
 * covers the quirk: the action then checks the kernel's work). A matching
 * row without an action is covered when the kernel is at least
 * @covered_since, and cannot be applied otherwise. A disabled quirk is
 * only matched, so that
 * "disabled" is reported only where the quirk would apply.
 */
void mac_quirk_decide(enum mac_quirk_id id, const struct mac_quirk_env *env,
		      bool disabled, struct mac_quirk_decision *d);

/**
 * mac_quirk_name() - the quirk's name, as in sysfs and the module parameter
 * @id: the quirk
 *
 * Return: e.g. "gpe_storm", or "invalid".
 */
const char *mac_quirk_name(enum mac_quirk_id id);

/**
 * mac_quirk_by_name() - the quirk of a name
 * @name: the name
 * @len: its length (the name need not be NUL-terminated)
 *
 * Return: the quirk, or %MAC_QUIRK_COUNT for an unknown name.
 */
enum mac_quirk_id mac_quirk_by_name(const char *name, size_t len);

/**
 * mac_quirk_state_name() - the word for a state, as sysfs shows it
 * @state: the state
 *
 * Return: "applied", "covered", "not-applicable", "cannot-apply",
 * "disabled", "failed", or "invalid".
 */
const char *mac_quirk_state_name(enum mac_quirk_state state);

#endif /* MACSUPPORT_MAC_QUIRKS_H */
