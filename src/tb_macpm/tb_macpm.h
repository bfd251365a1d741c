/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tb_macpm - Thunderbolt controller power management on Macs
 *
 * Copyright (C) 2026 The macsupport developers
 */
#ifndef TB_MACPM_H
#define TB_MACPM_H

#include <linux/acpi.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/workqueue.h>

#include "macsupport/tb_ids.h"

/* Hotplug downstream ports of one controller that the module links. */
#define TB_MAX_DSB	8
/*
 * functions of one chip (ports, NHI, xHCI) copied across system sleep
 * (Alpine Ridge), or at a cut (Thunderbolt 3)
 */
#define TB_CHIP_MAX	12

struct tb_ctrl;

/* Thunderbolt 3's power votes: the NHI's and the xHCI's (tb_votes.c) */
enum tb_vote_kind {
	TB_VOTE_NHI,
	TB_VOTE_XHCI,
	TB_NR_VOTES
};

/**
 * struct tb_vote - one Thunderbolt 3 power vote (RTPC) as a device
 * @dev: a child of @port and the runtime-PM supplier of @fn: it suspends
 *	after @fn and before @port (see "Thunderbolt 3 votes" in tb_votes.c)
 * @ctrl: its controller
 * @handle: the ACPI companion of the function, which holds RTPC
 * @port: the downstream port above the function (DSB0, DSB2) (referenced)
 * @fn: the function, the NHI or the xHCI (referenced), NULL until linked
 * @link: @fn's runtime-PM link to @dev, or NULL
 * @what: "NHI" or "xHCI", for the log
 * @given: RTPC(0) is in effect
 * @failed_in_row: RTPC(0) calls that failed in a row (ctrl->lock)
 * @retry_work: tries a failed RTPC(0) again
 */
struct tb_vote {
	struct device dev;
	struct tb_ctrl *ctrl;
	acpi_handle handle;
	struct pci_dev *port;
	struct pci_dev *fn;
	struct device_link *link;
	const char *what;
	bool given;
	unsigned int failed_in_row;
	struct delayed_work retry_work;
};

/**
 * struct tb_mech_ops - how the firmware switches one controller's power
 * @init: optional: find what else the mechanism needs in the firmware, once
 *	the controller's PCI devices are referenced and before its power switch
 *	device is initialized; what is missing sets ctrl->stay_on, nothing
 *	fails the bind
 * @attach: optional: once the power switch is registered and linked (the
 *	controller powered, tb_ctrls_lock held): add the mechanism's own
 *	devices; what fails sets ctrl->stay_on
 * @detach: optional: the controller is released, powered (tb_ctrls_lock
 *	held): undo @attach, leaving the firmware as it would be without us
 * @pci_add: optional: a PCI device was added while the controller is
 *	managed (tb_ctrls_lock held)
 * @blocker: optional: why the mechanism cannot power the controller down
 *	right now, or NULL; asked after the power switch's own blockers
 *	(tb_blocker(), ctrl->lock held)
 * @off: the power switch's runtime suspend, once nothing blocks (ctrl->lock
 *	held): cut the power or let the firmware cut it, listen for plugs
 *	(tb_arm()) and mark the controller's devices D3cold
 *	(tb_ctrl_mark_d3cold()). Return: 0, or -EBUSY with the controller left
 *	powered (an error would stop the switch's runtime PM)
 * @on: the power switch's runtime resume, plugs no longer listened for
 *	(ctrl->lock held): power the controller up and wait for its upstream
 *	port, or, with @power_with_upsb, make the upstream port's _PS0 power
 *	it. A failed power-up schedules ctrl->recover_work. Return: 0 or an
 *	error, which fails the resume
 * @resume_noirq: system sleep, the power switch's resume_noirq, for a
 *	controller that stayed off through it (ctrl->lock held): power it up
 *	before the upstream port's own resume_noirq restores it, through
 *	tb_ctrl_power_on(). Return: as @on
 * @retry: optional: tb_macpm.power_down was written (ctrl->lock held):
 *	forget what made the mechanism keep the controller on for good
 * @power_with_upsb: the power comes with the upstream port's _PS0, which the
 *	PCI core runs after the switch's resume: whoever wants the controller
 *	powered resumes the upstream port, a plug's wake is timed once the
 *	NHI is resumed, and whether the power came back is asked of the
 *	devices once they have resumed (tb_ctrl_up_failed())
 * @supplies_rp: the power switch is the runtime-PM supplier of the root
 *	port (and a child of the root port's parent), so that it suspends
 *	after the root port's _PS3 and can tell what the firmware did; else it
 *	is the upstream port's supplier and the root port's child
 *
 * One implementation per mechanism, each in a file of its own: XRPE or
 * TRPE with XRIL polled after a power-down (Thunderbolt 1 and 2), TRPE
 * alone (MacPro7,1's Titan Ridge; both in tb_xrpe.c), and Thunderbolt 3's
 * RTPC votes with the root port's _PS3 (tb_votes.c). tb_read_methods() in
 * tb_core.c picks one per controller, never two.
 */
struct tb_mech_ops {
	void (*init)(struct tb_ctrl *ctrl);
	void (*attach)(struct tb_ctrl *ctrl);
	void (*detach)(struct tb_ctrl *ctrl);
	void (*pci_add)(struct tb_ctrl *ctrl, struct pci_dev *pdev);
	const char *(*blocker)(struct tb_ctrl *ctrl);
	int (*off)(struct tb_ctrl *ctrl);
	int (*on)(struct tb_ctrl *ctrl);
	int (*resume_noirq)(struct tb_ctrl *ctrl);
	void (*retry)(struct tb_ctrl *ctrl);
	bool power_with_upsb;
	bool supplies_rp;
};

/**
 * struct tb_ctrl - one Thunderbolt controller the module powers
 * @dev: the controller's power switch ("tb_macpm" class device): a child
 *	of the root port and the runtime-PM supplier of @upsb, or, where the
 *	mechanism says so (@ops->supplies_rp), the supplier of @rp
 * @node: in tb_ctrls
 * @nhi: the controller's NHI (referenced)
 * @dsb0: the downstream port the NHI sits behind (referenced)
 * @upsb: the controller's upstream port, whose resume needs the power
 *	(referenced)
 * @rp: the root port above it (referenced)
 * @dsb: hotplug downstream ports (referenced), @ndsb of them
 * @dsb_link: their runtime-PM links to @nhi (NULL where refused)
 * @ndsb: number of hotplug downstream ports
 * @link: the runtime-PM link of @dev's consumer (@upsb, or @rp) to @dev
 * @handle: the NHI's ACPI companion, which holds the methods
 * @gen: controller generation
 * @ops: the power mechanism
 * @set_method: "XRPE" or "TRPE"
 * @set_args: how many arguments @set_method takes
 * @has_xril: the firmware has XRIL
 * @gpe: the plug GPE (XRIN), valid if @has_gpe
 * @has_gpe: the firmware names a plug GPE and its handler is installed
 * @xhci: the ACPI companion of the controller's xHCI, whose RTPC is the
 *	USB vote, or NULL
 * @vote: Thunderbolt 3: the NHI's and the xHCI's votes, or NULL
 * @has_notify: Titan Ridge: a plug is a notify on the NHI, and its handler
 *	is installed
 * @plug_gpe: Thunderbolt 3: the GPE of the root port's scope (0: none
 *	found); with @has_notify enabled while plugs are listened for
 * @plug_level: @plug_gpe is level-triggered (an _Lxx method)
 * @plug_method: the firmware's method for @plug_gpe ("\_GPE._L55")
 * @plug_pad: Alpine Ridge: the GPIO pad whose RX inversion @plug_method
 *	flips on each plug and unplug, as its AML names it (0: not found)
 * @own_gpe: Alpine Ridge: the module's handler is installed for the
 *	level-triggered @plug_gpe, and the work runs @plug_method
 * @plug_gpe_on: @plug_gpe is enabled by the module (with @own_gpe: for
 *	good, from probe to removal)
 * @plug_gpe_warned: enabling @plug_gpe failed once and was logged
 * @methods: what was found, for sysfs ("XRPE XRIL XRIN=0x14")
 * @mechanism: how the firmware switches the power: "XRPE", "TRPE" or, on
 *	Thunderbolt 3, "RTPC votes, root port _PS3"
 * @plug_source: how the firmware reports a plug, for sysfs ("GPE 0x14
 *	(XRIN)", or on Thunderbolt 3 the GPE of the root port's scope)
 * @rsw: thunderbolt.ko's root switch device, whose runtime PM the module
 *	enabled (referenced), or NULL
 * @lock: serializes the power state and everything below
 * @off: the controller is powered off (Thunderbolt 3: the root port's
 *	_PS3 cut both rails)
 * @armed: plugs are listened for (the GPE enabled, or the notify taken)
 * @sleep_off: it was off when system sleep began
 * @in_sleep: between the switch's prepare and complete callbacks
 * @plug_in_sleep: a plug (notify or own GPE) came during system sleep:
 *	handled in complete
 * @chip: Alpine Ridge, system sleep: the chip's functions whose config
 *	space was copied in the late suspend phase (referenced), @nchip of
 *	them (tb_ctrl_suspend_late())
 * @chip_state: the copies
 * @nchip: number of @chip
 * @chip_loaded: the copies were put in place in the noirq phase
 * @plug_storm: Alpine Ridge's GPE stormed and is disabled, until
 *	tb_macpm.power_down is written
 * @dying: being torn down: no more power-downs
 * @stay_on: why it stays powered for good, or NULL
 * @since: when @off last changed
 * @on_ns: time spent powered, up to @since
 * @off_ns: time spent unpowered, up to @since
 * @cycles: completed power-downs
 * @gpe_time: when the plug GPE (or notify) last fired
 * @wake_req: when the pending wake was requested (GPE), or 0
 * @wake_start: Thunderbolt 3: when the plug came whose power-up is under
 *	way, until the NHI is resumed; 0 when none
 * @last_wake_ms: latency of the last power-up, request to link up
 * @gpe_wakes: power-ups caused by the plug GPE or notify
 * @spurious: spurious GPEs (XRIL said "off, nothing plugged")
 * @storm_start: start of the current burst of spurious GPEs
 * @storm_count: spurious GPEs in that burst
 * @fw_kept_on: Thunderbolt 3: root port suspends whose _PS3 did not cut
 * @refusals: power-downs the firmware refused
 * @refused_in_row: of those, since the last power-down that took
 * @errors: failed method calls or power-ups
 * @down_failed_in_row: XRPE/TRPE: power-downs that failed (the method, or
 *	the plug GPE's enable) since the last one that worked
 * @down_retry_work: tries such a power-down again
 * @up_failed_in_row: failed power-ups since the last one that worked
 * @up_hold: Thunderbolt 3: a power-up did not come back (its upstream port
 *	or a function behind it did not answer), and the upstream port is held
 *	resumed until tb_macpm.power_down is written (tb_ctrl_up_failed())
 * @up_bad: Thunderbolt 3: since that failure, what the chip's functions
 *	saved may be what a dead chip read back: the next power-up restores
 *	them from @cut_state (tb_votes.c)
 * @cut: Thunderbolt 3: the upstream port and the functions below it whose
 *	saved config space was copied at the last cut (referenced), @ncut of
 *	them
 * @cut_state: the copies
 * @ncut: number of @cut
 * @gpe_work: handles a plug GPE or notify in process context
 * @rearm_work: re-enables the GPE after a spurious one, rate-limited, and
 *	arms it again after a failed power-up
 * @held: the NHI and hotplug ports are held resumed after a plug
 * @hold_until: until when (a later plug extends it)
 * @hold_work: lets them go after tb_macpm.plug_hold_ms
 * @look_work: holds them resumed to look for what is plugged in: after a
 *	refused power-down, a plug during system sleep, Alpine Ridge's plug GPE
 * @recover_work: clears the PM core's error after a failed power-up
 * @settle_work: tells the devices below the upstream port to idle, a while
 *	after a power-up (tb_ctrl_settle())
 */
struct tb_ctrl {
	struct device dev;
	struct list_head node;
	struct pci_dev *nhi;
	struct pci_dev *dsb0;
	struct pci_dev *upsb;
	struct pci_dev *rp;
	struct pci_dev *dsb[TB_MAX_DSB];
	struct device_link *dsb_link[TB_MAX_DSB];
	unsigned int ndsb;
	struct device_link *link;
	acpi_handle handle;
	enum mac_tb_gen gen;
	const struct tb_mech_ops *ops;
	const char *set_method;
	u32 set_args;
	bool has_xril;
	u32 gpe;
	bool has_gpe;
	acpi_handle xhci;
	struct tb_vote *vote[TB_NR_VOTES];
	bool has_notify;
	u32 plug_gpe;
	bool plug_level;
	char plug_method[sizeof("\\_GPE._L00")];
	u32 plug_pad;
	bool own_gpe;
	bool plug_gpe_on;
	bool plug_gpe_warned;
	char methods[48];
	const char *mechanism;
	char plug_source[128];
	struct device *rsw;

	struct mutex lock;	/* serialises power changes; protects @off to @hold_until */
	bool off;
	bool armed;
	bool sleep_off;
	bool in_sleep;
	bool plug_in_sleep;
	struct pci_dev *chip[TB_CHIP_MAX];
	struct pci_saved_state *chip_state[TB_CHIP_MAX];
	unsigned int nchip;
	bool chip_loaded;
	bool plug_storm;
	bool dying;
	const char *stay_on;
	ktime_t since;
	u64 on_ns;
	u64 off_ns;
	unsigned int cycles;
	ktime_t gpe_time;
	ktime_t wake_req;
	ktime_t wake_start;
	unsigned int last_wake_ms;
	unsigned int gpe_wakes;
	unsigned int spurious;
	ktime_t storm_start;
	unsigned int storm_count;
	unsigned int fw_kept_on;
	unsigned int refusals;
	unsigned int refused_in_row;
	unsigned int errors;
	unsigned int down_failed_in_row;
	struct delayed_work down_retry_work;
	unsigned int up_failed_in_row;
	bool up_hold;
	bool up_bad;
	struct pci_dev *cut[TB_CHIP_MAX];
	struct pci_saved_state *cut_state[TB_CHIP_MAX];
	unsigned int ncut;
	struct work_struct gpe_work;
	struct delayed_work rearm_work;
	bool held;
	ktime_t hold_until;
	struct delayed_work hold_work;
	struct work_struct look_work;
	struct work_struct recover_work;
	struct delayed_work settle_work;
};

/* tb_core.c: the controllers, the module's parameters */
extern bool tb_power_down;
extern bool tb_dp_connected;
extern unsigned int tb_plug_hold_ms;
extern unsigned int tb_power_off_delay_ms;

/* tb_power.c: the power switch device */
extern const struct device_type tb_ctrl_type;
void tb_ctrl_count_dev(void);
void tb_dev_released(void);
void tb_ctrl_wait_released(void);
int tb_ctrl_power_init(struct tb_ctrl *ctrl);
void tb_ctrl_power_exit(struct tb_ctrl *ctrl);
void tb_ctrl_param_changed(struct tb_ctrl *ctrl);
void tb_ctrl_dp_changed(struct tb_ctrl *ctrl);
void tb_ctrl_settle(struct tb_ctrl *ctrl);
int tb_ctrl_runtime_suspend(struct device *dev);
int tb_ctrl_runtime_resume(struct device *dev);
int tb_ctrl_power_on(struct tb_ctrl *ctrl);
void tb_ctrl_mark_d3cold(struct tb_ctrl *ctrl);
void tb_account(struct tb_ctrl *ctrl);
const char *tb_ctrl_blocker(struct tb_ctrl *ctrl);
const char *tb_blocker(struct tb_ctrl *ctrl);
void tb_hold_ports(struct tb_ctrl *ctrl);
void tb_request_on(struct tb_ctrl *ctrl);
extern const char tb_up_failed_reason[];
void tb_ctrl_up_failed(struct tb_ctrl *ctrl, const char *what);
void tb_ctrl_up_ok(struct tb_ctrl *ctrl);

static inline struct tb_ctrl *tb_ctrl_from_dev(struct device *dev)
{
	return container_of(dev, struct tb_ctrl, dev);
}

/* tb_xrpe.c: XRPE or TRPE, with XRIL (Thunderbolt 1 and 2) or alone (MacPro7,1) */
extern const struct tb_mech_ops tb_xrpe_ops;
extern const struct tb_mech_ops tb_trpe_ops;
int tb_xril(struct tb_ctrl *ctrl);

/* tb_votes.c: Thunderbolt 3's RTPC votes and the root port's _PS3 */
extern const struct tb_mech_ops tb_votes_ops;
int tb3_vote_is_stub(struct tb_ctrl *ctrl, acpi_handle rp_handle);

/* tb_plug.c: how a plug is heard (XRIN's GPE, Titan Ridge's notify, Alpine Ridge's GPE) */
void tb_plug_init(struct tb_ctrl *ctrl);
void tb_ctrl_power_start(struct tb_ctrl *ctrl);
void tb_plug_remove(struct tb_ctrl *ctrl);
void tb_plug_retry(struct tb_ctrl *ctrl);
int tb_arm(struct tb_ctrl *ctrl);
void tb_disarm(struct tb_ctrl *ctrl);

/* tb_sleep.c: system sleep */
extern const struct dev_pm_ops tb_ctrl_pm_ops;
void tb_chip_release(struct tb_ctrl *ctrl);

/* tb_sysfs.c: the power switch's attributes */
extern const struct attribute_group *tb_ctrl_groups[];

#endif
