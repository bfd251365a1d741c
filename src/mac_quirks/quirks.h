/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mac_quirks - internal interfaces between the module's files
 *
 * Copyright (C) 2026 The macsupport developers
 */
#ifndef MAC_QUIRKS_QUIRKS_H
#define MAC_QUIRKS_QUIRKS_H

#include <linux/ioport.h>
#include <linux/pci.h>

#include "macsupport/mac_quirks.h"

#define QUIRK_REASON_MAX	256
#define QUIRK_WAKE_MAX		4	/* ACPI devices per row */
#define QUIRK_WAKE_NODES	4	/* physical nodes per ACPI device */

/**
 * struct quirk_wake - wake-up the module turned off on one ACPI device
 * @adev: the ACPI device, held
 * @adev_off: wake-up of @adev itself was on and is now off
 * @nodes: physical nodes whose wake-up was on and is now off, held (to
 *	restore, the node list is walked again: only nodes still in it count)
 * @nr_nodes: entries in @nodes
 */
struct quirk_wake {
	struct acpi_device *adev;
	bool adev_off;
	struct device *nodes[QUIRK_WAKE_NODES];
	unsigned int nr_nodes;
};

/**
 * struct quirk_rec - the decision for one quirk, and what to undo
 * @state: the decision
 * @row: the table row that decided it, or NULL
 * @reason: why, and where applicable what the user can do (sysfs shows it)
 * @gpe_masked: the module masked @row->gpe
 * @wake: the wake sources it turned off
 * @nr_wake: entries in @wake
 * @res: the range it reserved
 */
struct quirk_rec {
	enum mac_quirk_state state;
	const struct mac_quirk *row;
	char reason[QUIRK_REASON_MAX];
	bool gpe_masked;
	struct quirk_wake wake[QUIRK_WAKE_MAX];
	unsigned int nr_wake;
	struct resource *res;
};

void quirk_absent(struct quirk_rec *rec);
void quirk_act(struct quirk_rec *rec);
void quirk_explain(struct quirk_rec *rec, struct pci_dev *pdev);
void quirk_undo(struct quirk_rec *rec);
void quirk_wake_forget(struct quirk_rec *rec, struct device *dev);
bool quirk_wake_holds(struct quirk_rec *rec, struct device *dev);

#endif /* MAC_QUIRKS_QUIRKS_H */
