// SPDX-License-Identifier: GPL-2.0
/*
 * mac_quirks - what the module does for a quirk, and how it undoes it
 *
 * Copyright (C) 2026 The macsupport developers
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/pm_wakeup.h>
#include <linux/suspend.h>

#include "quirks.h"

static __printf(3, 4)
void quirk_say(struct quirk_rec *rec, enum mac_quirk_state state, const char *fmt, ...)
{
	va_list ap;

	rec->state = state;
	va_start(ap, fmt);
	vscnprintf(rec->reason, sizeof(rec->reason), fmt, ap);
	va_end(ap);
}

/* End the reason with the row's fix, where the fix addresses what happened. */
static void quirk_fix(struct quirk_rec *rec)
{
	size_t n = strlen(rec->reason);

	scnprintf(rec->reason + n, sizeof(rec->reason) - n, "; fix: %s", rec->row->fix);
}

/* Quirks that work through ACPI cannot be done when ACPI is off. */
static bool quirk_acpi_off(struct quirk_rec *rec)
{
	if (!acpi_disabled)
		return false;
	quirk_say(rec, MAC_QUIRK_CANNOT_APPLY, "ACPI is disabled (acpi=off)");
	return true;
}

/* --- what a row acts on is not there ------------------------------------ */

/*
 * The quirk cannot occur here: not applicable, with what is missing. Not
 * failed: nothing was tried, and there is nothing for the user to fix.
 */
static void quirk_gpe_absent(struct quirk_rec *rec, acpi_status status)
{
	quirk_say(rec, MAC_QUIRK_NOT_APPLICABLE,
		  "GPE 0x%02x does not exist here (%s), so it cannot storm",
		  rec->row->gpe, acpi_format_exception(status));
}

static void quirk_wake_absent(struct quirk_rec *rec, const char *names)
{
	quirk_say(rec, MAC_QUIRK_NOT_APPLICABLE,
		  "%s: not wake devices here (absent, or no _PRW), so they cannot wake this Mac",
		  names);
}

/* The ACPI name of a wake path (its last segment), as /proc/acpi/wakeup shows it */
static const char *quirk_wake_name(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot ? dot + 1 : path;
}

/**
 * quirk_absent() - say why a matching row cannot occur on this machine
 * @rec: the record; @rec->row is set
 *
 * For a decision with &mac_quirk_decision.absent: the row's GPE, or every
 * one of its wake devices, does not exist here.
 */
void quirk_absent(struct quirk_rec *rec)
{
	const struct mac_quirk *q = rec->row;
	const char * const *path;
	acpi_event_status st;
	char names[64] = "";

	switch (q->action) {
	case MAC_QUIRK_ACT_MASK_GPE:
		quirk_gpe_absent(rec, acpi_get_gpe_status(NULL, q->gpe, &st));
		break;
	case MAC_QUIRK_ACT_DISABLE_WAKE:
		for (path = q->wake; *path; path++) {
			strlcat(names, names[0] ? ", " : "", sizeof(names));
			strlcat(names, quirk_wake_name(*path), sizeof(names));
		}
		quirk_wake_absent(rec, names);
		break;
	default:
		quirk_say(rec, MAC_QUIRK_NOT_APPLICABLE, "what it acts on is not there: %s",
			  q->what);
		break;
	}
}

/* --- GPE storms -------------------------------------------------------- */

static bool quirk_gpe_masked(unsigned int gpe)
{
	acpi_event_status st;

	return ACPI_SUCCESS(acpi_get_gpe_status(NULL, gpe, &st)) && (st & ACPI_EVENT_FLAG_MASKED);
}

static void quirk_mask_gpe(struct quirk_rec *rec)
{
	unsigned int gpe = rec->row->gpe;
	acpi_event_status st;
	acpi_status status;

	if (quirk_acpi_off(rec))
		return;
	status = acpi_get_gpe_status(NULL, gpe, &st);
	if (ACPI_FAILURE(status)) {
		/* the decision saw it; a GPE block removed since */
		quirk_gpe_absent(rec, status);
		return;
	}
	if (!(st & ACPI_EVENT_FLAG_MASKED)) {
		status = acpi_mask_gpe(NULL, gpe, TRUE);
		/* masked meanwhile by someone else: ACPICA refuses a second mask */
		if (ACPI_FAILURE(status) && !quirk_gpe_masked(gpe)) {
			quirk_say(rec, MAC_QUIRK_FAILED, "masking GPE 0x%02x failed (%s)", gpe,
				  acpi_format_exception(status));
			quirk_fix(rec);
			return;
		}
		rec->gpe_masked = ACPI_SUCCESS(status);
	}
	if (!rec->gpe_masked) {
		/* acpi_mask_gpe= at boot, or the user: theirs to undo */
		quirk_say(rec, MAC_QUIRK_COVERED, "GPE 0x%02x was already masked: %s", gpe,
			  rec->row->what);
		return;
	}
	/* Until the module loads it storms on: say what masks it from boot on */
	quirk_say(rec, MAC_QUIRK_APPLIED, "masked GPE 0x%02x: %s; until this module loads: %s",
		  gpe, rec->row->what, rec->row->fix);
}

/* --- wake sources -------------------------------------------------------- */

/* Turn wake-up off on @adev and its physical nodes, as /proc/acpi/wakeup would. */
static void quirk_wake_off(struct quirk_wake *w)
{
	struct acpi_device_physical_node *entry;

	if (device_may_wakeup(&w->adev->dev)) {
		device_set_wakeup_enable(&w->adev->dev, false);
		w->adev_off = true;
	}

	mutex_lock(&w->adev->physical_node_lock);
	list_for_each_entry(entry, &w->adev->physical_node_list, node) {
		if (w->nr_nodes == QUIRK_WAKE_NODES)
			break;
		if (device_may_wakeup(entry->dev)) {
			device_set_wakeup_enable(entry->dev, false);
			w->nodes[w->nr_nodes++] = get_device(entry->dev);
		}
	}
	mutex_unlock(&w->adev->physical_node_lock);
}

/* Turn wake-up back on where it is still off and the device is still there. */
static void quirk_wake_on(struct device *dev)
{
	if (device_is_registered(dev) && device_can_wakeup(dev) && !device_may_wakeup(dev))
		device_set_wakeup_enable(dev, true);
}

/*
 * Turn back on what quirk_wake_off() turned off, and drop the references.
 * A physical node that went away meanwhile is no longer in the list (and
 * quirk_wake_forget() dropped it before its removal began), so only devices
 * still bound to the ACPI device are touched.
 */
static void quirk_wake_restore(struct quirk_wake *w)
{
	struct acpi_device_physical_node *entry;
	unsigned int i;

	if (w->adev_off)
		quirk_wake_on(&w->adev->dev);

	mutex_lock(&w->adev->physical_node_lock);
	list_for_each_entry(entry, &w->adev->physical_node_list, node)
		for (i = 0; i < w->nr_nodes; i++)
			if (entry->dev == w->nodes[i])
				quirk_wake_on(entry->dev);
	mutex_unlock(&w->adev->physical_node_lock);

	for (i = 0; i < w->nr_nodes; i++)
		put_device(w->nodes[i]);
	w->nr_nodes = 0;
	acpi_dev_put(w->adev);
	w->adev = NULL;
}

/**
 * quirk_wake_forget() - a device is being removed: never turn its wake-up on
 * @rec: the record
 * @dev: the device
 *
 * Called before device_del() tears down the device's wake-up source, so the
 * restore cannot give a dying device a new one.
 */
void quirk_wake_forget(struct quirk_rec *rec, struct device *dev)
{
	unsigned int i, j;

	for (i = 0; i < rec->nr_wake; i++) {
		struct quirk_wake *w = &rec->wake[i];

		for (j = 0; j < w->nr_nodes; ) {
			if (w->nodes[j] == dev) {
				put_device(dev);
				w->nodes[j] = w->nodes[--w->nr_nodes];
			} else {
				j++;
			}
		}
	}
}

/**
 * quirk_wake_holds() - is @dev a physical node of an ACPI device @rec acts on
 * @rec: the record
 * @dev: the device
 *
 * Return: true if a driver binding @dev may have turned its wake-up on again.
 */
bool quirk_wake_holds(struct quirk_rec *rec, struct device *dev)
{
	struct acpi_device *adev = ACPI_COMPANION(dev);
	unsigned int i;

	for (i = 0; adev && i < rec->nr_wake; i++)
		if (rec->wake[i].adev == adev)
			return true;
	return false;
}

static void quirk_disable_wake(struct quirk_rec *rec)
{
	char off[64] = "", idle[64] = "", missing[64] = "";
	const char * const *path;

	if (quirk_acpi_off(rec))
		return;
	for (path = rec->row->wake; *path && rec->nr_wake < QUIRK_WAKE_MAX; path++) {
		const char *name = quirk_wake_name(*path);
		struct quirk_wake *w = &rec->wake[rec->nr_wake];
		struct acpi_device *adev;
		acpi_handle handle;
		char *list;

		adev = ACPI_SUCCESS(acpi_get_handle(NULL, (char *)*path, &handle)) ?
		       acpi_get_acpi_dev(handle) : NULL;
		if (!adev || !adev->wakeup.flags.valid) {
			acpi_dev_put(adev);
			list = missing;
		} else {
			memset(w, 0, sizeof(*w));
			w->adev = adev;
			quirk_wake_off(w);
			rec->nr_wake++;
			list = w->adev_off || w->nr_nodes ? off : idle;
		}
		strlcat(list, list[0] ? ", " : "", 64);
		strlcat(list, name, 64);
	}

	if (!rec->nr_wake) {
		/* the decision saw one; gone since */
		quirk_wake_absent(rec, missing);
		return;
	}
	if (!off[0]) {
		quirk_say(rec, MAC_QUIRK_COVERED, "wake-up was already off: %s%s%s: %s", idle,
			  missing[0] ? "; absent: " : "", missing, rec->row->what);
		return;
	}
	quirk_say(rec, MAC_QUIRK_APPLIED, "wake-up turned off: %s%s%s%s%s: %s", off,
		  idle[0] ? "; already off: " : "", idle, missing[0] ? "; absent: " : "", missing,
		  rec->row->what);
}

/* --- the MacBookPro11,4/11,5 power-off window --------------------------- */

/*
 * The first PCI device with a resource in [@start, @end], held; or NULL.
 * Only resources in the resource tree count: an unassigned one (the PCI
 * core leaves it at 0 to size - 1, IORESOURCE_UNSET, no parent) decodes
 * nothing, however large it is.
 */
static struct pci_dev *quirk_pci_in_range(resource_size_t start, resource_size_t end,
					  int *bar)
{
	struct pci_dev *pdev = NULL;
	int i;

	for_each_pci_dev(pdev) {
		for (i = 0; i < PCI_NUM_RESOURCES; i++) {
			struct resource *r = &pdev->resource[i];

			if (!(r->flags & IORESOURCE_MEM) || (r->flags & IORESOURCE_UNSET) ||
			    !r->parent)
				continue;
			if (r->start <= end && r->end >= start) {
				*bar = i;
				return pdev;
			}
		}
	}
	return NULL;
}

static void quirk_reserve(struct quirk_rec *rec)
{
	resource_size_t start = rec->row->start, end = start + rec->row->size - 1;
	struct pci_dev *pdev;
	int bar;

	if (region_intersects(start, rec->row->size, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		quirk_say(rec, MAC_QUIRK_CANNOT_APPLY, "System RAM lies in %pa-%pa", &start, &end);
		quirk_fix(rec);
		return;
	}
	rec->res = request_mem_region(start, rec->row->size, KBUILD_MODNAME ": poweroff window");
	/* Checked after the request: a BAR assigned meanwhile is seen too */
	pdev = quirk_pci_in_range(start, end, &bar);
	if (pdev) {
		if (rec->res) {
			release_mem_region(start, rec->row->size);
			rec->res = NULL;
		}
		quirk_say(rec, MAC_QUIRK_CANNOT_APPLY, "%s %pR lies in %pa-%pa", pci_name(pdev),
			  &pdev->resource[bar], &start, &end);
		quirk_fix(rec);
		pci_dev_put(pdev);
		return;
	}
	if (rec->res) {
		quirk_say(rec, MAC_QUIRK_APPLIED,
			  "reserved %pa-%pa, in which nothing lies; the kernel had not (its fixup did not run)",
			  &start, &end);
		return;
	}
	quirk_say(rec, MAC_QUIRK_COVERED,
		  "%pa-%pa is reserved (busy) by another owner and no device lies in it: %s",
		  &start, &end, rec->row->kernel_fix);
}

/* --- checks of the kernel's own work --------------------------------------- */

static bool quirk_kernel_covers(struct quirk_rec *rec)
{
	const struct mac_quirk *q = rec->row;

	if (q->covered_since && MACSUPPORT_KERNEL_VERSION >= q->covered_since)
		return true;
	quirk_say(rec, MAC_QUIRK_CANNOT_APPLY, "%s; Linux %u.%u and later handle it, this is %u.%u",
		  q->what, q->covered_since >> 16, (q->covered_since >> 8) & 0xff,
		  MACSUPPORT_KERNEL_VERSION >> 16, (MACSUPPORT_KERNEL_VERSION >> 8) & 0xff);
	quirk_fix(rec);
	return false;
}

static void quirk_check_osi(struct quirk_rec *rec)
{
	union acpi_object arg = {
		.string = { .type = ACPI_TYPE_STRING, .length = strlen(rec->row->osi),
			    .pointer = (char *)rec->row->osi },
	};
	struct acpi_object_list args = { .count = 1, .pointer = &arg };
	unsigned long long val;
	acpi_status status;

	if (quirk_acpi_off(rec))
		return;
	status = acpi_evaluate_integer(NULL, "\\_OSI", &args, &val);
	if (ACPI_FAILURE(status)) {
		quirk_say(rec, MAC_QUIRK_FAILED, "evaluating _OSI(\"%s\") failed (%s)",
			  rec->row->osi, acpi_format_exception(status));
		return;
	}
	if (!val) {
		quirk_say(rec, MAC_QUIRK_CANNOT_APPLY, "_OSI(\"%s\") answers false: %s",
			  rec->row->osi, rec->row->what);
		quirk_fix(rec);
		return;
	}
	quirk_say(rec, MAC_QUIRK_COVERED, "_OSI(\"%s\") answers true: %s", rec->row->osi,
		  rec->row->kernel_fix);
}

/*
 * The sleep state "mem" means: suspending to idle avoids what S3 does to
 * the machine. mem_sleep_default= sets it from boot on, and writes to
 * /sys/power/mem_sleep change it; a module can do neither. Checked once, at
 * load: the decision says what held then.
 */
static void quirk_check_s2idle(struct quirk_rec *rec)
{
	if (!IS_ENABLED(CONFIG_SUSPEND)) {
		quirk_say(rec, MAC_QUIRK_NOT_APPLICABLE,
			  "the kernel cannot suspend (CONFIG_SUSPEND=n): %s", rec->row->what);
		return;
	}
	if (pm_suspend_default_s2idle()) {
		quirk_say(rec, MAC_QUIRK_COVERED,
			  "\"mem\" is suspend to idle, not S3, at load: %s", rec->row->what);
		return;
	}
	quirk_say(rec, MAC_QUIRK_CANNOT_APPLY, "\"mem\" is S3 (deep) at load: %s",
		  rec->row->what);
	quirk_fix(rec);
}

/**
 * quirk_act() - do a matching row's action and record the outcome
 * @rec: the record; @rec->row is set
 */
void quirk_act(struct quirk_rec *rec)
{
	switch (rec->row->action) {
	case MAC_QUIRK_ACT_MASK_GPE:
		quirk_mask_gpe(rec);
		break;
	case MAC_QUIRK_ACT_DISABLE_WAKE:
		quirk_disable_wake(rec);
		break;
	case MAC_QUIRK_ACT_RESERVE:
		quirk_reserve(rec);
		break;
	case MAC_QUIRK_ACT_CHECK_OSI:
		quirk_check_osi(rec);
		break;
	case MAC_QUIRK_ACT_CHECK_S2IDLE:
		quirk_check_s2idle(rec);
		break;
	default:
		quirk_say(rec, MAC_QUIRK_FAILED, "unknown action %d", rec->row->action);
		break;
	}
}

/**
 * quirk_explain() - say why for a decision that needs no action
 * @rec: the record, with the state and row mac_quirk_decide() gave
 * @pdev: the PCI device the row matched, or NULL
 */
void quirk_explain(struct quirk_rec *rec, struct pci_dev *pdev)
{
	const struct mac_quirk *q = rec->row;

	switch (rec->state) {
	case MAC_QUIRK_NOT_APPLICABLE:
		strscpy(rec->reason,
			"does not apply to this Mac (its model, devices and ACPI objects)",
			sizeof(rec->reason));
		break;
	case MAC_QUIRK_DISABLED:
		quirk_say(rec, MAC_QUIRK_DISABLED,
			  "turned off by mac_quirks.disable=; would handle: %s",
			  q->what);
		break;
	default:
		/* covered or not, as the core decided from the same versions */
		if (quirk_kernel_covers(rec))
			quirk_say(rec, MAC_QUIRK_COVERED, "%s%s%s (Linux %u.%u and later)",
				  pdev ? pci_name(pdev) : "", pdev ? ": " : "", q->kernel_fix,
				  q->covered_since >> 16, (q->covered_since >> 8) & 0xff);
		break;
	}
}

/**
 * quirk_undo() - undo what quirk_act() did
 * @rec: the record; left with nothing to undo
 */
void quirk_undo(struct quirk_rec *rec)
{
	unsigned int i;

	if (rec->gpe_masked) {
		/* the user may have unmasked it meanwhile: then there is nothing to undo */
		if (quirk_gpe_masked(rec->row->gpe))
			acpi_mask_gpe(NULL, rec->row->gpe, FALSE);
		rec->gpe_masked = false;
	}
	for (i = 0; i < rec->nr_wake; i++)
		quirk_wake_restore(&rec->wake[i]);
	rec->nr_wake = 0;
	if (rec->res) {
		release_mem_region(rec->row->start, rec->row->size);
		rec->res = NULL;
	}
}
