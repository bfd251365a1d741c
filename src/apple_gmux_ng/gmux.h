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
#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/pnp.h>
#include <linux/regmap.h>
#include <linux/workqueue.h>

#include "macsupport/gmux_proto.h"
#include "macsupport/gmux_regs.h"
#include "macsupport/gmux_switch.h"
#include "macsupport/mac_model.h"

#define GMUX_DRIVER_NAME	"apple_gmux_ng"

/*
 * Consecutive failed notifications after which the GPE is disabled: a
 * status that cannot be cleared keeps a level-triggered GPE firing.
 */
#define GMUX_NOTIFY_MAX_FAILURES	8

/*
 * How long a dGPU power change may take to signal completion. The in-tree
 * driver waits 200 ms; the harness's GPE stand-in and an emulated gmux need
 * more on a loaded host, and a real gmux answers well inside either.
 */
#define GMUX_POWER_TIMEOUT_MS		500

/*
 * How long a dGPU may take to answer config reads after its power-on, by
 * default (parameter dgpu_alive_ms): counted once the firmware's PWRD(0)
 * has returned, which waits for the link to train itself; 1 s is the
 * PCIe figure the PCI core cites (pci_bridge_wait_for_secondary_bus()).
 */
#define GMUX_DGPU_ALIVE_MS		1000
#define GMUX_DGPU_ALIVE_MAX_MS		60000	/* the PCI core's PCIE_RESET_READY_POLL_MS */

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

#define GMUX_AUDIO_LINKS_MAX	2

/* Functions of a PCI slot: the dGPU and its HDMI audio share one. */
#define GMUX_DGPU_FUNCS		8

/**
 * struct gmux_audio_link - a device link the driver made
 * @hda: the consumer, a dGPU's HDMI/DP audio function (referenced)
 * @gpu: the supplier, the dGPU, function 0 (referenced)
 */
struct gmux_audio_link {
	struct pci_dev *hda;
	struct pci_dev *gpu;
};

/**
 * enum gmux_igd_probe - where the panel was when the iGPU's driver probed
 * @GMUX_IGD_PROBE_NOT_SEEN: not seen (no iGPU, or its driver has not probed
 *	since the gmux was probed)
 * @GMUX_IGD_PROBE_BEFORE: its driver was bound before the gmux was probed
 * @GMUX_IGD_PROBE_PANEL: the panel was on the iGPU
 * @GMUX_IGD_PROBE_NO_PANEL: the panel was on the dGPU (an eDP Mac's i915
 *	then has no panel)
 */
enum gmux_igd_probe {
	GMUX_IGD_PROBE_NOT_SEEN,
	GMUX_IGD_PROBE_BEFORE,
	GMUX_IGD_PROBE_PANEL,
	GMUX_IGD_PROBE_NO_PANEL,
};

/**
 * struct gmux_switch_state - display switching (gmux_switch.c)
 * @lock: serialises switches, and the dGPU power change's register
 *	requests and firmware link handshake with them (gmux_power.c nests
 *	it inside &gmux_power.lock); protects the fields below
 * @handler: this gmux's vga_switcheroo handler is registered
 * @external: the external port follows the panel (no Thunderbolt)
 * @switches: display switches carried out and verified
 * @switch_failures: switches that failed or did not read back
 * @ddc_switches: DDC-only switches carried out (classic)
 * @ddc_failures: DDC-only switches that failed
 * @off_refused: vga_switcheroo OFFs of the dGPU refused (its driver is
 *	amdgpu, see gmux_pci_driver_needs_power())
 * @audio_link: audio-to-dGPU device links the driver made
 * @audio_links_kernel: audio functions the kernel's quirk linked itself
 * @igd_probe: where the panel was when the iGPU's driver last probed
 * @igd_probe_pending: the iGPU's driver is probing (between the driver
 *	core's BIND_DRIVER and BOUND_DRIVER notifications)
 * @pci_nb: notifier on the PCI bus: the iGPU's driver probing
 */
struct gmux_switch_state {
	struct mutex lock;	/* serialises display switches; protects the fields below */
	bool handler;
	bool external;
	unsigned int switches;
	unsigned int switch_failures;
	unsigned int ddc_switches;
	unsigned int ddc_failures;
	unsigned int off_refused;
	struct gmux_audio_link audio_link[GMUX_AUDIO_LINKS_MAX];
	unsigned int audio_links_kernel;
	enum gmux_igd_probe igd_probe;
	bool igd_probe_pending;
	struct notifier_block pci_nb;
};

/**
 * enum gmux_power_user - who changes the dGPU's power
 * @GMUX_POWER_NOBODY: nobody turned it off (it is on, or never changed)
 * @GMUX_POWER_SWITCHEROO: the vga_switcheroo handler's power_state()
 * @GMUX_POWER_RUNTIME_PM: the dgpu_power switch's runtime suspend
 */
enum gmux_power_user {
	GMUX_POWER_NOBODY,
	GMUX_POWER_SWITCHEROO,
	GMUX_POWER_RUNTIME_PM,
};

/**
 * struct gmux_power - the dGPU's power, its one owner (gmux_power.c)
 * @events: the layers above that asked to hear what the owner is told
 *	(gmux_power_notify(): the display switch's moves, for the runtime PM)
 * @lock: serialises every change of the dGPU's power; protects the fields
 *	below. Taken inside &gmux_runpm.lock and vga_switcheroo's own lock
 * @done: completed by the notify handler on GMUX_INT_POWER
 * @state: 1 on, 0 off, -1 not known (no change made yet, or one failed)
 * @off_by: who turned it off (or tried, if @state is not known);
 *	GMUX_POWER_NOBODY once powered again
 * @changes: power changes completed
 * @failures: power changes that failed or did not complete
 * @ns: time spent in completed power changes (benchmark)
 * @wait_ns: of that, waiting for the gmux to signal completion
 * @irq_missed: power changes whose completion was found in the status
 *	after the interrupt did not come
 * @link_method: the dGPU's ACPI companion if it has the firmware's link
 *	handshake method PWRD, else NULL (an ACPI namespace node: it outlives
 *	the PCI device)
 * @link_downs: PWRD(1) calls (link disabled before a power-off)
 * @link_ups: PWRD(0) calls (link trained after a power-on)
 * @link_failures: PWRD calls that failed, or PWRD(0) reporting a link that
 *	did not train to its full width
 * @link_ns: time spent in PWRD (benchmark)
 * @port_cfg: the dGPU's root port's config header (16 dwords) as it was
 *	before the last PWRD, written back after it
 * @port_saved: @port_cfg holds it
 * @port_restores: PWRD calls after which the port's header had been
 *	rewritten by the firmware, and was written back
 * @pm_nb: PM notifier: a dGPU vga_switcheroo switched off is powered for
 *	a system sleep (see DOC: dGPU power)
 * @sleep_on: it is, and is to be cut again after the sleep
 * @sleep_state: the PCI core's D-state of each function of its slot when it
 *	was powered for the sleep, put back once it is cut again
 * @since: when @state last changed (or the record was set up)
 * @on_ns: time the dGPU was not cut (powered, or not known) up to @since
 * @off_ns: time the dGPU was cut (@state 0) up to @since
 */
struct gmux_power {
	struct blocking_notifier_head events;	/* gmux_power_notify() */
	struct mutex lock;	/* serialises dGPU power changes; protects the fields below */
	struct completion done;
	int state;
	enum gmux_power_user off_by;
	unsigned int changes;
	unsigned int failures;
	u64 ns;
	u64 wait_ns;
	unsigned int irq_missed;
	acpi_handle link_method;
	unsigned int link_downs;
	unsigned int link_ups;
	unsigned int link_failures;
	u64 link_ns;
	u32 port_cfg[16];
	bool port_saved;
	unsigned int port_restores;
	struct notifier_block pm_nb;
	bool sleep_on;
	pci_power_t sleep_state[GMUX_DGPU_FUNCS];
	ktime_t since;
	u64 on_ns;
	u64 off_ns;
};

/**
 * struct gmux_runpm_nodrv - a function of the dGPU's slot without a driver
 * @taken: the driver allowed its runtime PM and gave it an autosuspend
 *	delay, so that it runtime-suspends when unused (the PCI core then
 *	saves its state and leaves it in D0) and the gmux can cut the slot
 * @was_forbidden: its runtime PM was forbidden before (power/control "on",
 *	the PCI core's default): forbidden again when it is given back
 * @was_autosuspend: it used autosuspend before
 * @delay: its autosuspend delay before
 * @hibernation: held resumed for a hibernation
 */
struct gmux_runpm_nodrv {
	bool taken;
	bool was_forbidden;
	bool was_autosuspend;
	int delay;
	bool hibernation;
};

/**
 * struct gmux_runpm - automatic power-off of the discrete GPU (gmux_runpm.c)
 * @power_dev: the "dgpu_power" switch device, supplier of the GPU; set
 *	while the switch exists (cleared under @lock before it goes)
 * @node: in the list of switches a change of dgpu_runtime_off or
 *	dgpu_no_driver_off kicks
 * @link_lock: serialises linking and unlinking the GPU and its siblings;
 *	protects @link, @sibling_link, @dying, @nodrv, and the writers of
 *	@dgpu and @sibling. Never taken by the switch's runtime-PM callbacks: its
 *	holders run them (device_link_add(), pm_runtime_get_sync())
 * @link: the device link GPU -> @power_dev, while @dgpu is set
 * @sibling_link: the other functions' device links to @power_dev (NULL
 *	if it failed)
 * @dying: the switch is being removed: nothing is linked any more
 * @pci_nb: PCI bus notifier: a GPU driver binds, a function of the GPU's
 *	slot comes or goes
 * @pm_nb: PM notifier: a hibernation wakes the functions without a driver
 *	that runtime PM cut (see gmux_runpm_pm_notify())
 * @power_nb: on the power owner's @events: the panel back on the iGPU
 *	retries a cut refused while it was on the dGPU
 * @nodrv: per function of the GPU's slot, the runtime-PM settings the
 *	driver changed on it while it has no driver (gmux_runpm_nodrv_take())
 * @hotplug_work: asks for a runtime resume of the GPU on an external
 *	hotplug (takes @lock, which the notification must not wait for)
 * @recover_work: clears the runtime-PM error a failed power-on leaves
 *	on the switch and its consumers (see gmux_runpm_clear_error())
 * @lock: the power state; taken by the runtime-PM callbacks; protects
 *	the fields below
 * @dgpu: the discrete GPU (function 0), referenced, while linked
 * @sibling: the other functions of the GPU's slot, referenced, by function
 * @offs: power cuts
 * @ons: power restorations
 * @blocked: runtime suspends of the switch that left the power on
 * @errors: power changes the gmux did not carry out
 * @dead: GPUs that did not answer after power-on
 * @hotplug_wakes: runtime resumes asked for on an external hotplug
 * @blocker: why the power stayed on the last time
 */
struct gmux_runpm {
	struct device *power_dev;
	struct list_head node;
	struct mutex link_lock;	/* (un)linking the dGPU: @link, @sibling_link, @dying, @nodrv */
	struct device_link *link;
	struct device_link *sibling_link[GMUX_DGPU_FUNCS];
	bool dying;
	struct notifier_block pci_nb;
	struct notifier_block pm_nb;
	struct notifier_block power_nb;
	struct gmux_runpm_nodrv nodrv[GMUX_DGPU_FUNCS];
	struct work_struct hotplug_work;
	struct work_struct recover_work;
	struct mutex lock;	/* the switch's power state: the fields below */
	struct pci_dev *dgpu;
	struct pci_dev *sibling[GMUX_DGPU_FUNCS];
	unsigned int offs;
	unsigned int ons;
	unsigned int blocked;
	unsigned int errors;
	unsigned int dead;
	unsigned int hotplug_wakes;
	char blocker[96];
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
 * @bl_lock: protects @bdev against its withdrawal by @bl_withdraw_work
 * @bdev: the backlight device, or NULL when another interface drives the panel
 * @max_brightness: the backlight's maximum (register 0x70, capped)
 * @apple_bl_register: apple_bl's apple_bl_register() while apple_bl is
 *	evicted (its module is pinned until it is given back), else NULL
 * @bl_nb: backlight notifier, while the backlight stands on the kernel's
 *	"vendor" choice (6.1), which a GPU driver can still change to native
 * @bl_withdraw_work: re-checks the kernel's choice after another backlight
 *	registered, and withdraws the gmux backlight if it no longer fits
 * @debugfs: debugfs directory
 * @selected_port: register that debugfs selected_port_data reads and writes
 * @irq_lock: serialises the notify handler, system sleep, the unmask retry
 *	and teardown; protects the fields below
 * @suspended: interrupts are off for a system sleep
 * @irq_stopping: teardown has begun: nothing may unmask any more
 * @gpe_off: the GPE was disabled after GMUX_NOTIFY_MAX_FAILURES
 * @notify_fail_run: consecutive failed notifications
 * @unmask_pending: the interrupt should be on but the gmux did not take it
 * @unmask_retries: attempts of @unmask_work since the last success
 * @unmask_work: unmasks the interrupt once the gmux answers again
 * @suspend_count: system suspends seen
 * @resume_count: resumes seen
 * @notify_count: gmux notifications handled
 * @notify_errors: notifications whose register access failed
 * @notify_ignored: notifications that came after the GPE was disabled
 * @status_seen: OR of every interrupt status handled
 * @last_error: the errno of the last failed display switch or dGPU power
 *	change, 0 if none (debugfs switch file)
 * @sw: display switching
 * @power: the dGPU's power
 * @runpm: automatic power-off of the discrete GPU
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
	struct mutex bl_lock;	/* @bdev, against its withdrawal */
	struct backlight_device *bdev;
	u32 max_brightness;
	int (*apple_bl_register)(void);
	struct notifier_block bl_nb;
	struct work_struct bl_withdraw_work;
	struct dentry *debugfs;
	u8 selected_port;

	struct mutex irq_lock;	/* the interrupt's state: @suspended to @resume_count */
	bool suspended;
	bool irq_stopping;
	bool gpe_off;
	unsigned int notify_fail_run;
	bool unmask_pending;
	unsigned int unmask_retries;
	struct delayed_work unmask_work;
	unsigned int suspend_count;
	unsigned int resume_count;
	atomic_t notify_count;
	atomic_t notify_errors;
	atomic_t notify_ignored;
	atomic_t status_seen;
	int last_error;
	struct gmux_switch_state sw;
	struct gmux_power power;

	struct gmux_runpm runpm;
};

/* gmux_regmap.c */
extern const struct gmux_io_ops gmux_iomem_ops;
extern const struct gmux_io_ops gmux_sim_ops;
extern const struct gmux_reg_access gmux_regmap_access;
int gmux_regmap_init(struct apple_gmux_ng *gmux);
const char *gmux_reg_name(unsigned int reg);
bool gmux_reg_is_32bit(enum mac_gmux_kind kind, unsigned int reg);
bool gmux_reg_readable(struct apple_gmux_ng *gmux, unsigned int reg);

/* gmux_backlight.c */
int gmux_backlight_init(struct apple_gmux_ng *gmux);
bool gmux_backlight_registered(struct apple_gmux_ng *gmux);
void gmux_backlight_refresh(struct apple_gmux_ng *gmux);

/* gmux_irq.c */
int gmux_irq_init(struct apple_gmux_ng *gmux);
void gmux_irq_suspend(struct apple_gmux_ng *gmux);
void gmux_irq_resume(struct apple_gmux_ng *gmux);

/* gmux_pci.c: which device is which GPU, whose the panel is (DOC: Who is who) */

/**
 * gmux_client_id() - what vga_switcheroo calls a GPU of this Mac
 * @gmux: the gmux
 * @pdev: a display device
 *
 * Return: VGA_SWITCHEROO_IGD for Intel's and the MCP79's (and the harness's
 * stand-in at 00:02.0 under the simulator), VGA_SWITCHEROO_DIS otherwise.
 */
enum vga_switcheroo_client_id gmux_client_id(struct apple_gmux_ng *gmux, struct pci_dev *pdev);

/**
 * gmux_pci_is_gpu() - is @pdev a display device that gmux_client_id() calls @id?
 * @gmux: the gmux
 * @pdev: a PCI device
 * @id: VGA_SWITCHEROO_IGD or VGA_SWITCHEROO_DIS
 *
 * Return: true if it is.
 */
bool gmux_pci_is_gpu(struct apple_gmux_ng *gmux, struct pci_dev *pdev,
		     enum vga_switcheroo_client_id id);

/**
 * gmux_pci_is_dgpu() - is @pdev the discrete GPU of this gmux's machine?
 * @gmux: the gmux
 * @pdev: a PCI device
 *
 * Return: true for a display device that get_client_id() calls DIS and
 * that is not attached through Thunderbolt (an eGPU is not the gmux's).
 */
bool gmux_pci_is_dgpu(struct apple_gmux_ng *gmux, struct pci_dev *pdev);

/**
 * gmux_pci_driver_needs_power() - must the gmux never cut @pdev's power?
 * @pdev: the discrete GPU
 *
 * Return: true while @pdev's driver is amdgpu: its runtime suspend enters
 * BACO and its runtime resume leaves it, both through the chip's SMU, also
 * after a vga_switcheroo OFF; neither works on a chip without power.
 */
bool gmux_pci_driver_needs_power(struct pci_dev *pdev);

/**
 * gmux_panel_on_igd() - does SWITCH_DISPLAY give the panel to the IGD?
 * @gmux: the gmux
 *
 * Return: true if it does; false if the panel is on the dGPU or the
 * register cannot be read.
 */
bool gmux_panel_on_igd(struct apple_gmux_ng *gmux);

/**
 * gmux_igd_without_panel() - did an eDP Mac's iGPU driver probe without the panel?
 * @gmux: the gmux
 *
 * Return: true if this gmux switches an eDP panel (indexed, T2) and the
 * iGPU's driver probed while the panel was on the dGPU: i915 then has no
 * panel, and the panel must stay on the dGPU.
 */
bool gmux_igd_without_panel(struct apple_gmux_ng *gmux);

/* gmux_power.c: the dGPU's power */
void gmux_power_init(struct apple_gmux_ng *gmux);
int gmux_power_set(struct apple_gmux_ng *gmux, bool on, enum gmux_power_user who);
int gmux_power_state(struct apple_gmux_ng *gmux, enum gmux_power_user *who);
void gmux_power_residency(struct apple_gmux_ng *gmux, u64 *on_ms, u64 *off_ms);
void gmux_power_resume(struct apple_gmux_ng *gmux);
int gmux_power_register(struct apple_gmux_ng *gmux);
int gmux_power_wait_alive(struct pci_dev *dgpu);
unsigned int gmux_power_alive_ms(void);
void gmux_power_link_found(struct apple_gmux_ng *gmux, struct pci_dev *dgpu);
void gmux_power_irq(struct apple_gmux_ng *gmux);
void gmux_power_show(struct seq_file *s, struct apple_gmux_ng *gmux);
const char *gmux_power_user_name(enum gmux_power_user who);

/**
 * enum gmux_power_event - what gmux_power_notify() passes on
 * @GMUX_POWER_PANEL_ON_IGD: the panel went to the integrated GPU: a cut
 *	refused while it was on the discrete one may pass now
 */
enum gmux_power_event {
	GMUX_POWER_PANEL_ON_IGD,
};

void gmux_power_register_notifier(struct apple_gmux_ng *gmux, struct notifier_block *nb);
void gmux_power_unregister_notifier(struct apple_gmux_ng *gmux, struct notifier_block *nb);
void gmux_power_notify(struct apple_gmux_ng *gmux, enum gmux_power_event event);

/* gmux_switch.c: vga_switcheroo handler */
int gmux_switch_init(struct apple_gmux_ng *gmux);
void gmux_switch_exit(struct apple_gmux_ng *gmux);

/**
 * gmux_display_switch() - move the panel (and DDC, and the external port
 *	where the model wires it to the gmux) to one GPU
 * @gmux: the gmux
 * @to: GMUX_GPU_IGD or GMUX_GPU_DIS
 *
 * Every register written is read back. Sleeps.
 *
 * Return: 0 when the gmux carried the switch out; -EIO when a register
 * reads back its old value; another negative errno from the access.
 * Every failure is logged and counted.
 */
int gmux_display_switch(struct apple_gmux_ng *gmux, enum gmux_gpu to);

/* gmux_runpm.c */
void gmux_runpm_setup(struct apple_gmux_ng *gmux);
int gmux_runpm_init(struct apple_gmux_ng *gmux);
void gmux_runpm_exit(struct apple_gmux_ng *gmux);
void gmux_runpm_resume(struct apple_gmux_ng *gmux);
void gmux_runpm_hotplug(struct apple_gmux_ng *gmux);
void gmux_runpm_wait_released(void);

/* gmux_debugfs.c */
void gmux_debugfs_init(struct apple_gmux_ng *gmux);
void gmux_debugfs_exit(struct apple_gmux_ng *gmux);
void gmux_debugfs_cleanup(void);

/* gmux_prefs.c */
extern const struct attribute_group *gmux_prefs_groups[];

#endif /* APPLE_GMUX_NG_H */
