/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apple_gmux_ng - private header
 *
 * Copyright (C) 2026 The macsupport developers
 */
#ifndef APPLE_GMUX_NG_H
#define APPLE_GMUX_NG_H

#include <linux/acpi.h>
#include <linux/atomic.h>
#include <linux/backlight.h>
#include <linux/pnp.h>
#include <linux/regmap.h>

#include "macsupport/gmux_proto.h"
#include "macsupport/gmux_regs.h"
#include "macsupport/mac_model.h"

#define GMUX_DRIVER_NAME	"apple_gmux_ng"

/**
 * struct gmux_window - where and how the driver reaches the gmux
 * @base: ioport_map() or ioremap() cookie of the registers
 * @res: the resource it was mapped from
 * @sim_journal: TEST ONLY: the simulator's memory window, whose journal
 *	every access is appended to (see macsupport/gmux_sim.h); NULL on
 *	real hardware
 * @sim_dropped: TEST ONLY: journal entries lost because the ring was full
 * @sim_sync: TEST ONLY: reads wait for the simulator to catch up (classic)
 */
struct gmux_window {
	void __iomem *base;
	struct resource *res;
	void __iomem *sim_journal;
	unsigned long sim_dropped;
	bool sim_sync;
};

/**
 * struct apple_gmux_ng - driver data of one gmux
 * @pnp: the PNP device of the gmux ACPI node
 * @handle: its ACPI handle
 * @win: the register window
 * @io: protocol state (kind, accessors, timeouts)
 * @regmap: register access; its lock serialises every protocol exchange
 * @version: firmware version read at probe
 * @model: the machine's entry in the model table, or NULL
 * @gpe: GPE number from GMGP, or -1 when the firmware gives none
 * @bdev: the backlight device, or NULL when another interface drives the panel
 * @max_brightness: the backlight's maximum (register 0x70, capped)
 * @debugfs: debugfs directory
 * @selected_port: register that debugfs selected_port_data reads and writes
 * @notify_count: gmux notifications handled
 * @notify_errors: notifications whose register access failed
 * @status_seen: OR of every interrupt status handled
 * @suspended: interrupts are off for a system sleep
 * @suspend_count: system suspends seen
 * @resume_count: resumes seen
 */
struct apple_gmux_ng {
	struct pnp_dev *pnp;
	acpi_handle handle;
	struct gmux_window win;
	struct gmux_io io;
	struct regmap *regmap;
	struct gmux_version version;
	const struct mac_model_info *model;
	int gpe;
	struct backlight_device *bdev;
	u32 max_brightness;
	struct dentry *debugfs;
	u8 selected_port;
	atomic_t notify_count;
	atomic_t notify_errors;
	atomic_t status_seen;
	bool suspended;
	unsigned int suspend_count;
	unsigned int resume_count;
};

/* gmux_regmap.c */
extern const struct gmux_io_ops gmux_iomem_ops;
extern const struct gmux_io_ops gmux_sim_ops;
int gmux_regmap_init(struct apple_gmux_ng *gmux);
const char *gmux_reg_name(unsigned int reg);
bool gmux_reg_is_32bit(enum mac_gmux_kind kind, unsigned int reg);
bool gmux_reg_readable(struct apple_gmux_ng *gmux, unsigned int reg);

/* gmux_backlight.c */
int gmux_backlight_init(struct apple_gmux_ng *gmux);

/* gmux_irq.c */
int gmux_irq_init(struct apple_gmux_ng *gmux);
int gmux_irq_set_enabled(struct apple_gmux_ng *gmux, bool enable);

/* gmux_debugfs.c */
void gmux_debugfs_init(struct apple_gmux_ng *gmux);
void gmux_debugfs_exit(struct apple_gmux_ng *gmux);
void gmux_debugfs_cleanup(void);

#endif /* APPLE_GMUX_NG_H */
