// SPDX-License-Identifier: GPL-2.0
/*
 * apple_gmux_ng - the discrete GPU's power: one owner
 *
 * Copyright (C) 2026 The macsupport developers
 */

#include <linux/acpi.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/seq_file.h>
#include <linux/suspend.h>
#include <linux/vga_switcheroo.h>

#include "gmux.h"

/**
 * DOC: dGPU power
 *
 * DISCRETE_POWER takes 1 then 3 to power the dGPU on, 1 then 0 to power it
 * off; the gmux sequences the rails and raises GMUX_INT_POWER when done.
 * With a GPE the driver waits for that interrupt (GMUX_POWER_TIMEOUT_MS);
 * if it does not come but the status shows the completion, the change
 * counts as done and the missed interrupt is counted. Without a GPE (or
 * once it was disabled) the driver polls the interrupt status for the same
 * bit and clears it. A change that does not complete is an error: returned
 * (vga_switcheroo ignores power_state()'s result, so it is also logged)
 * and counted.
 *
 * One owner: two parts of the driver change the dGPU's power, the
 * vga_switcheroo handler (power_state(): a manual ``ON``/``OFF``, the power
 * stage of a switch) and runtime PM (the dgpu_power switch, see DOC:
 * Automatic power-off of the discrete GPU). Both go through
 * gmux_power_set(), under one lock, and one record says whether the dGPU
 * is on, off or in a state not known (a change that failed), and who
 * turned it off. A request for the state already in force touches no
 * register; one after a failure is carried out. So runtime PM finds a dGPU
 * that vga_switcheroo switched OFF off (the switch has nothing to cut, its
 * reason to stay on is "none") and powers it before anything on it
 * resumes; a vga_switcheroo ``ON`` of a dGPU that runtime PM cut powers it
 * (its next runtime resume then finds it on); and after a system sleep
 * gmux_power_resume() cuts again whatever was off, whoever turned it off:
 * the firmware may power the dGPU when the machine wakes, and neither
 * vga_switcheroo nor a driver it switched OFF (radeon) powers it down
 * again. When the driver unbinds, the dGPU stays off if vga_switcheroo
 * turned it off (its client believes it off, and powers it through the
 * next handler), and is powered if runtime PM did.
 *
 * A system sleep with the dGPU switched OFF: the PCI core saves the config
 * space of every device before the sleep and writes it back after, the
 * dGPU's and its HDMI audio's included, whatever their driver thinks; on a
 * dGPU without power it would save all-ones and write them back into a
 * chip the firmware may have powered at wake, and the driver's own saved
 * state (radeon's, nouveau's: pci_save_state() in their switcheroo OFF)
 * would be overwritten with them. So a PM notifier powers such a dGPU
 * before the sleep and gives it back what its driver's OFF left it
 * (its saved state, D3hot, and the PCI core's resume fixups: an NVIDIA
 * dGPU shows its HDMI audio function again only once quirk_nvidia_hda
 * has run on function 0), and after the sleep does what that OFF did
 * again (state saved, D-states as before) and cuts the power. Any
 * vga_switcheroo request meanwhile ends that: the dGPU is then the
 * driver's again. A dGPU that does not answer once powered is cut again
 * and left alone. Not covered: an OFF under way when the sleep begins
 * (vga_switchoff() suspends the driver, then asks the handler to cut: a
 * sleep between the two finds the dGPU still powered, and the cut comes
 * just before it); and a dGPU switched OFF before this driver was first
 * loaded is taken for off from vga_switcheroo's word; a vga_switcheroo
 * ``ON`` runs no fixup (nouveau's own ON does not either: its runtime
 * resume sets the bit, its switcheroo ON does not), so an NVIDIA dGPU's
 * HDMI audio stays hidden after ``OFF`` and ``ON`` until the PCI core
 * next resumes function 0 (a system sleep).
 *
 * Every dual-GPU Mac's firmware has a link handshake for the operating
 * system in the dGPU's ACPI node: GFX0.PWRD(1) takes the root port's link
 * down (Link Disable and 100 ms on MacBookPro8,2 and 10,1; PUPD's L2/L3
 * entry and lane power-down on 11,3, 13,3 and 15,1), PWRD(0) brings it up
 * again and waits for training, returning 0 if the link came up at its full
 * width (x8). The firmware never calls it itself. Where the dGPU's node has
 * PWRD, a power-off calls PWRD(1) before DISCRETE_POWER cuts the power,
 * and a power-on calls PWRD(0) once the gmux has completed it: cutting a
 * live link, or leaving it disabled, is what keeps a dGPU from coming back
 * (reported on MacBookPro16,1). A failed PWRD is logged and counted, and
 * the power change goes on: the power-on path then finds out whether the
 * GPU answers. On MacBookPro13,3 and the T2 Macs PWRD(0) itself also
 * writes DISCRETE_POWER = 3 to the gmux (PUPD's SGMX through the index
 * ports, MBWR through the T2 window); the driver has powered it on already
 * by then, and holds the display switch lock (gmux->sw.lock) over each
 * PWRD and register request, so that no display switch of its own
 * interleaves with the firmware's writes. Not called: PWG1/PWG3
 * (retraining at 2.5/8 GT/s).
 *
 * The later Macs' PWRD rewrites the dGPU's root port and never writes it
 * back (macOS enumerates the port again): MacBookPro13,3's PWRD(0) ends
 * with the port's bus numbers, command register and memory window 0,
 * MacBookPro15,1's PWRD(1) with its bus numbers 0x00FEFF00 (secondary bus
 * 0xff, subordinate 0xfe). Either way the port forwards nothing to the
 * dGPU, which would not come back, and a rescan of the bus meanwhile would
 * number the port's bus anew. So the driver reads the port's config header
 * before each PWRD and writes back after it what the firmware changed
 * (counted in debugfs: link_port_restores): to Linux the port stays as it
 * configured it. The port is kept resumed over each PWRD, so that its own
 * runtime PM neither saves nor restores a header the firmware has
 * rewritten in the middle.
 */

/* without a GPE: how often the interrupt status is polled */
#define GMUX_POWER_POLL_US	1000
/* after a power-on: how often the dGPU is asked whether it answers */
#define GMUX_DGPU_ALIVE_POLL_MS	5

static unsigned int dgpu_alive_ms = GMUX_DGPU_ALIVE_MS;
module_param(dgpu_alive_ms, uint, 0644);
MODULE_PARM_DESC(dgpu_alive_ms,
		 "How long a powered dGPU may take to answer config reads before its resume fails, in ms, after the firmware's PWRD(0) trained the link (default 1000, at most 60000)");

static const char *const gmux_power_user_names[] = {
	[GMUX_POWER_NOBODY]	= "none",
	[GMUX_POWER_SWITCHEROO]	= "vga_switcheroo",
	[GMUX_POWER_RUNTIME_PM]	= "runtime_pm",
};

/* Does the gmux's interrupt tell us when a power change is done? */
static bool gmux_power_irq_usable(struct apple_gmux_ng *gmux)
{
	bool usable;

	mutex_lock(&gmux->irq_lock);
	usable = gmux->gpe >= 0 && !gmux->gpe_off && !gmux->irq_stopping && !gmux->suspended;
	mutex_unlock(&gmux->irq_lock);
	return usable;
}

/* Is GMUX_INT_POWER pending? If so, clear it. */
static int gmux_power_status_take(struct apple_gmux_ng *gmux, bool *done)
{
	unsigned int status;
	int ret;

	*done = false;
	ret = regmap_read(gmux->regmap, GMUX_PORT_INTERRUPT_STATUS, &status);
	if (ret || !(status & GMUX_INT_POWER))
		return ret;
	*done = true;
	return regmap_write(gmux->regmap, GMUX_PORT_INTERRUPT_STATUS, GMUX_INT_POWER);
}

static int gmux_power_poll(struct apple_gmux_ng *gmux)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(GMUX_POWER_TIMEOUT_MS);
	bool done, late;
	int ret;

	for (;;) {
		/* only a poll that began after the deadline concludes a timeout */
		late = time_after(jiffies, deadline);
		ret = gmux_power_status_take(gmux, &done);
		if (ret || done)
			return ret;
		if (late)
			return -ETIMEDOUT;
		usleep_range(GMUX_POWER_POLL_US, 2 * GMUX_POWER_POLL_US);
	}
}

static int gmux_power_wait_irq(struct apple_gmux_ng *gmux)
{
	struct gmux_power *pw = &gmux->power;
	bool done;
	int ret;

	if (wait_for_completion_timeout(&pw->done, msecs_to_jiffies(GMUX_POWER_TIMEOUT_MS)))
		return 0;
	/* no interrupt: did the gmux finish anyway? */
	ret = gmux_power_status_take(gmux, &done);
	if (ret)
		return ret;
	if (!done && !completion_done(&pw->done))
		return -ETIMEDOUT;
	pw->irq_missed++;
	dev_warn_ratelimited(&gmux->pnp->dev, "dGPU power change completed without its interrupt\n");
	return 0;
}

static struct pci_dev *gmux_power_dgpu(struct apple_gmux_ng *gmux);

/* The dGPU's root port (the bridge above it), referenced, or NULL */
static struct pci_dev *gmux_power_port(struct apple_gmux_ng *gmux)
{
	struct pci_dev *dgpu, *port = NULL;

	dgpu = gmux_power_dgpu(gmux);
	if (dgpu)
		port = pci_dev_get(pci_upstream_bridge(dgpu));
	pci_dev_put(dgpu);
	return port;
}

static void gmux_power_port_save(struct gmux_power *pw, struct pci_dev *port)
{
	unsigned int i;

	pw->port_saved = false;
	for (i = 0; i < ARRAY_SIZE(pw->port_cfg); i++)
		if (pci_read_config_dword(port, 4 * i, &pw->port_cfg[i]))
			return;
	pw->port_saved = true;
}

/*
 * Write back the parts of the port's header the firmware may have changed,
 * in the order the PCI core restores a bridge (the high dwords first, the
 * command register last); not the status halves, whose bits a write would
 * clear. Returns whether anything differed.
 */
static bool gmux_power_port_restore(struct gmux_power *pw, struct pci_dev *port)
{
	static const u8 dwords[] = { 15, 12, 11, 10, 9, 8, 7, 6, 1 };
	bool changed = false;
	unsigned int i;
	u32 now, mask;
	u8 n;

	if (!pw->port_saved)
		return false;
	for (i = 0; i < ARRAY_SIZE(dwords); i++) {
		n = dwords[i];
		/* command and I/O base/limit: the low half (a status above) */
		mask = (n == 1 || n == 7) ? 0xffff : 0xffffffff;
		if (pci_read_config_dword(port, 4 * n, &now) || now == ~0U)
			return changed;
		if (!((now ^ pw->port_cfg[n]) & mask))
			continue;
		changed = true;
		if (mask == 0xffff)
			pci_write_config_word(port, 4 * n, pw->port_cfg[n]);
		else
			pci_write_config_dword(port, 4 * n, pw->port_cfg[n]);
	}
	return changed;
}

/* PWRD(@down) of the dGPU's node; pw->lock held. */
static void gmux_power_link(struct apple_gmux_ng *gmux, bool down)
{
	union acpi_object arg = { .integer = { .type = ACPI_TYPE_INTEGER, .value = down } };
	struct acpi_object_list args = { .count = 1, .pointer = &arg };
	struct gmux_power *pw = &gmux->power;
	unsigned long long val;
	struct pci_dev *port;
	acpi_status status;
	ktime_t t0;

	lockdep_assert_held(&pw->lock);
	if (!pw->link_method)
		return;
	t0 = ktime_get();
	/* the port's header while the dGPU is reachable (see DOC: dGPU power) */
	port = gmux_power_port(gmux);
	if (port) {
		pm_runtime_get_sync(&port->dev);
		gmux_power_port_save(pw, port);
	}
	mutex_lock(&gmux->sw.lock);
	status = acpi_evaluate_integer(pw->link_method, "PWRD", &args, &val);
	mutex_unlock(&gmux->sw.lock);
	if (port) {
		if (gmux_power_port_restore(pw, port)) {
			pw->port_restores++;
			dev_dbg(&gmux->pnp->dev, "PWRD(%d) left the dGPU's root port %s rewritten: written back\n",
				down, pci_name(port));
		}
		pm_runtime_put(&port->dev);
		pci_dev_put(port);
	}
	pw->link_ns += ktime_to_ns(ktime_sub(ktime_get(), t0));
	if (down)
		pw->link_downs++;
	else
		pw->link_ups++;
	if (ACPI_FAILURE(status)) {
		pw->link_failures++;
		dev_warn(&gmux->pnp->dev, "dGPU link %s (PWRD(%d)) failed: %s\n",
			 down ? "down" : "up", down, acpi_format_exception(status));
	} else if (!down && val) {
		pw->link_failures++;
		dev_warn(&gmux->pnp->dev, "dGPU link up (PWRD(0)): the firmware says it did not train to full width (%llu)\n",
			 val);
	}
}

/* The dGPU (function 0), referenced, or NULL */
static struct pci_dev *gmux_power_dgpu(struct apple_gmux_ng *gmux)
{
	struct pci_dev *pdev = NULL;

	for_each_pci_dev(pdev)
		if (gmux_pci_is_dgpu(gmux, pdev))
			return pdev;
	return NULL;
}

/*
 * Is the dGPU there to take its link down? One the firmware left
 * unpowered (after a sleep) does not answer, and on T2 firmware PWRD(1)
 * would then wait a second for an L2 entry that never comes.
 */
static bool gmux_power_link_present(struct apple_gmux_ng *gmux)
{
	struct pci_dev *dgpu;
	bool present;

	if (!gmux->power.link_method)
		return false;
	dgpu = gmux_power_dgpu(gmux);
	present = dgpu && pci_device_is_present(dgpu);
	pci_dev_put(dgpu);
	return present;
}

/*
 * The change itself: link handshake, DISCRETE_POWER, the wait for its
 * completion. pw->lock held; the record is the caller's.
 */
static int gmux_power_change(struct apple_gmux_ng *gmux, bool on, bool link)
{
	struct gmux_power *pw = &gmux->power;
	ktime_t t0, t_wait;
	bool use_irq, stale;
	int ret;

	lockdep_assert_held(&pw->lock);
	t0 = ktime_get();
	/* the link goes down before the power does */
	if (!on && link)
		gmux_power_link(gmux, true);
	use_irq = gmux_power_irq_usable(gmux);
	reinit_completion(&pw->done);
	mutex_lock(&gmux->sw.lock);
	/* a completion left from before must not end this wait */
	ret = use_irq ? 0 : gmux_power_status_take(gmux, &stale);
	if (!ret)
		ret = gmux_power_request(&gmux_regmap_access, gmux, on);
	mutex_unlock(&gmux->sw.lock);
	if (ret)
		return ret;
	t_wait = ktime_get();
	ret = use_irq ? gmux_power_wait_irq(gmux) : gmux_power_poll(gmux);
	if (ret) {
		if (ret == -ETIMEDOUT)
			dev_err(&gmux->pnp->dev, "dGPU power %s did not complete within %u ms (%s)\n",
				on ? "on" : "off", GMUX_POWER_TIMEOUT_MS,
				use_irq ? "no POWER interrupt" : "POWER status never set");
		return ret;
	}
	pw->wait_ns += ktime_to_ns(ktime_sub(ktime_get(), t_wait));
	/* powered: the link comes up and trains */
	if (on && link)
		gmux_power_link(gmux, false);
	pw->ns += ktime_to_ns(ktime_sub(ktime_get(), t0));
	return 0;
}

/*
 * Account the time spent in the state that ends now (pw->lock held): a
 * dGPU whose power is not known counts as not cut.
 */
static void gmux_power_account(struct gmux_power *pw)
{
	ktime_t now = ktime_get();
	u64 d = ktime_to_ns(ktime_sub(now, pw->since));

	lockdep_assert_held(&pw->lock);
	if (pw->state == 0)
		pw->off_ns += d;
	else
		pw->on_ns += d;
	pw->since = now;
}

/* gmux_power_set() with pw->lock held; @again: even if already so */
static int __gmux_power_set(struct apple_gmux_ng *gmux, bool on, enum gmux_power_user who,
			    bool link, bool again)
{
	struct gmux_power *pw = &gmux->power;
	int ret;

	lockdep_assert_held(&pw->lock);
	/* whatever vga_switcheroo asks ends the hold of a sleep (see below) */
	if (who == GMUX_POWER_SWITCHEROO)
		pw->sleep_on = false;
	/* already so: the first who turned it off stays its owner */
	if (pw->state == on && !again)
		return 0;
	/* a failed power-off leaves it off for all we know: its user's */
	if (!on)
		pw->off_by = who;
	ret = gmux_power_change(gmux, on, link);
	if (ret) {
		pw->failures++;
		WRITE_ONCE(gmux->last_error, ret);
		/* the gmux may have acted on part of it: the state is not known */
		gmux_power_account(pw);
		pw->state = -1;
		if (ret != -ETIMEDOUT)
			dev_err(&gmux->pnp->dev, "dGPU power %s failed: %pe\n",
				on ? "on" : "off", ERR_PTR(ret));
		return ret;
	}
	gmux_power_account(pw);
	pw->state = on;
	if (on)
		pw->off_by = GMUX_POWER_NOBODY;
	pw->changes++;
	dev_dbg(&gmux->pnp->dev, "dGPU powered %s (%s)\n", on ? "on" : "off",
		gmux_power_user_names[who]);
	return 1;
}

/**
 * gmux_power_set() - power the discrete GPU on or off
 * @gmux: the gmux, probed (its regmap and interrupt set up)
 * @on: true to power on (DISCRETE_POWER 1 then 3), false for off (1 then 0)
 * @who: GMUX_POWER_SWITCHEROO or GMUX_POWER_RUNTIME_PM, for the record
 *
 * The one entry point for a change of the dGPU's power (see DOC: dGPU
 * power). Sleeps: waits, bounded by GMUX_POWER_TIMEOUT_MS, for the gmux to
 * signal completion through its interrupt, or polls the interrupt status
 * when the gmux has no GPE or its GPE was disabled; calls the firmware's
 * link handshake around it where there is one.
 *
 * Return: 1 when the gmux carried the change out; 0 when the dGPU was in
 * that state already (nothing was done); -ETIMEDOUT when the gmux did not
 * complete it in time; another negative errno when a register access
 * failed. After a failure the state is not known and the next request is
 * carried out. Every failure is logged and counted in debugfs.
 */
int gmux_power_set(struct apple_gmux_ng *gmux, bool on, enum gmux_power_user who)
{
	struct gmux_power *pw = &gmux->power;
	int ret;

	mutex_lock(&pw->lock);
	ret = __gmux_power_set(gmux, on, who, true, false);
	mutex_unlock(&pw->lock);
	return ret;
}

/**
 * gmux_power_state() - the dGPU's power as last set
 * @gmux: the gmux
 * @who: if not NULL, who turned it off (GMUX_POWER_NOBODY while powered)
 *
 * Return: 1 on, 0 off, -1 not known (no change made yet, or one failed).
 */
int gmux_power_state(struct apple_gmux_ng *gmux, enum gmux_power_user *who)
{
	struct gmux_power *pw = &gmux->power;
	int state;

	mutex_lock(&pw->lock);
	state = pw->state;
	if (who)
		*who = pw->off_by;
	mutex_unlock(&pw->lock);
	return state;
}

/**
 * gmux_power_residency() - how long the dGPU was cut, and not, since load
 * @gmux: the gmux
 * @on_ms: receives the milliseconds it was not cut (powered, or its power
 *	not known: before the first change, and after one that failed)
 * @off_ms: receives the milliseconds it was cut, by runtime PM or by
 *	vga_switcheroo
 *
 * Counted by the power owner under its lock at every change of the record
 * (gmux_power_set(), and a dGPU taken for off at registration), from
 * gmux_power_init(); sysfs on_ms and off_ms of the dgpu_power device.
 */
void gmux_power_residency(struct apple_gmux_ng *gmux, u64 *on_ms, u64 *off_ms)
{
	struct gmux_power *pw = &gmux->power;

	mutex_lock(&pw->lock);
	gmux_power_account(pw);
	*on_ms = div_u64(pw->on_ns, NSEC_PER_MSEC);
	*off_ms = div_u64(pw->off_ns, NSEC_PER_MSEC);
	mutex_unlock(&pw->lock);
}

/**
 * gmux_power_resume() - after a system sleep, cut again what was off
 * @gmux: the gmux
 *
 * The firmware may power the dGPU when the machine wakes. Whoever had
 * turned it off, it goes off again; only logs on failure: a gmux fault
 * never fails a resume.
 */
void gmux_power_resume(struct apple_gmux_ng *gmux)
{
	struct gmux_power *pw = &gmux->power;
	enum gmux_power_user who;
	int ret;

	mutex_lock(&pw->lock);
	who = pw->off_by;
	if (who == GMUX_POWER_NOBODY) {
		mutex_unlock(&pw->lock);
		return;
	}
	ret = __gmux_power_set(gmux, false, who, gmux_power_link_present(gmux), true);
	mutex_unlock(&pw->lock);
	if (ret < 0)
		dev_warn(&gmux->pnp->dev, "cannot cut the dGPU's power again after sleep (%s had cut it): %pe\n",
			 gmux_power_user_names[who], ERR_PTR(ret));
}

/**
 * gmux_power_alive_ms() - how long a powered dGPU may take to answer
 *
 * Return: the parameter dgpu_alive_ms, at most GMUX_DGPU_ALIVE_MAX_MS.
 */
unsigned int gmux_power_alive_ms(void)
{
	return min_t(unsigned int, READ_ONCE(dgpu_alive_ms), GMUX_DGPU_ALIVE_MAX_MS);
}

/**
 * gmux_power_wait_alive() - wait (bounded) until a powered dGPU answers
 * @dgpu: the discrete GPU (function 0)
 *
 * Return: 0 once it answers config reads, -ENODEV if it does not within
 * gmux_power_alive_ms().
 */
int gmux_power_wait_alive(struct pci_dev *dgpu)
{
	unsigned long end = jiffies + msecs_to_jiffies(gmux_power_alive_ms());

	for (;;) {
		bool late = time_after(jiffies, end);

		if (pci_device_is_present(dgpu))
			return 0;
		if (late)
			return -ENODEV;
		msleep(GMUX_DGPU_ALIVE_POLL_MS);
	}
}

/*
 * Before a system sleep: a dGPU vga_switcheroo switched OFF is powered,
 * and its functions are given back the state their drivers saved, in the
 * D-state they left them in (D3hot; the state saved again, as their OFF
 * left it), so that the PCI core saves and restores live devices, and an
 * ON before the sleep finds what its driver expects (see DOC: dGPU
 * power). Each function gets the PCI core's resume_early fixups after its
 * state, as pci_pm_runtime_resume() and pci_pm_resume_noirq() do: function
 * 0 first, whose NVIDIA quirk (quirk_nvidia_hda) shows function 1 again.
 * A dGPU that does not answer once powered is cut again and left alone.
 */
static void gmux_power_sleep_prepare(struct apple_gmux_ng *gmux)
{
	struct gmux_power *pw = &gmux->power;
	struct pci_dev *dgpu, *f;
	pci_power_t d;
	unsigned int fn;
	bool saved;

	dgpu = gmux_power_dgpu(gmux);
	if (!dgpu)
		return;
	mutex_lock(&pw->lock);
	if (pw->state || pw->off_by != GMUX_POWER_SWITCHEROO)
		goto out;
	if (__gmux_power_set(gmux, true, GMUX_POWER_SWITCHEROO, true, false) < 0) {
		dev_warn(&gmux->pnp->dev, "cannot power the switched-off dGPU for the sleep: the PCI core will read it unpowered\n");
		goto out;
	}
	if (gmux_power_wait_alive(dgpu)) {
		dev_warn(&gmux->pnp->dev, "the switched-off dGPU %s does not answer once powered for the sleep: cut again\n",
			 pci_name(dgpu));
		__gmux_power_set(gmux, false, GMUX_POWER_SWITCHEROO, true, false);
		goto out;
	}
	pw->sleep_on = true;
	for (fn = 0; fn < GMUX_DGPU_FUNCS; fn++) {
		pw->sleep_state[fn] = PCI_UNKNOWN;
		f = pci_get_slot(dgpu->bus, PCI_DEVFN(PCI_SLOT(dgpu->devfn), fn));
		if (!f)
			continue;
		d = f->current_state;
		pw->sleep_state[fn] = d;
		/* powered up from scratch: D0, whatever the PCI core noted */
		f->current_state = PCI_UNKNOWN;
		pci_set_power_state(f, PCI_D0);
		saved = f->state_saved;
		pci_restore_state(f);
		/*
		 * What the PCI core runs after it restores a device at every
		 * resume: an NVIDIA dGPU hides its HDMI audio (function 1)
		 * once it lost power, until quirk_nvidia_hda sets bit 25 of
		 * config 0x488 on function 0 again; without it function 1
		 * reads all-ones and the sleep would save and restore that.
		 */
		pci_fixup_device(pci_fixup_resume_early, f);
		/* restoring consumed it: saved again, as the OFF left it */
		if (saved)
			pci_save_state(f);
		if (d != PCI_D0 && d != PCI_UNKNOWN)
			pci_set_power_state(f, PCI_D3hot);
		pci_dev_put(f);
	}
	dev_dbg(&gmux->pnp->dev, "dGPU switched off: powered for the sleep\n");
out:
	mutex_unlock(&pw->lock);
	pci_dev_put(dgpu);
}

/*
 * After the sleep: the switched-off dGPU as its driver's OFF left it
 * (state saved, its functions' D-states as before the sleep), cut.
 */
static void gmux_power_sleep_done(struct apple_gmux_ng *gmux)
{
	struct gmux_power *pw = &gmux->power;
	struct pci_dev *dgpu, *f[GMUX_DGPU_FUNCS] = { };
	bool present;
	unsigned int fn;

	dgpu = gmux_power_dgpu(gmux);
	mutex_lock(&pw->lock);
	/* not if a vga_switcheroo request came meanwhile (it cleared sleep_on) */
	if (!pw->sleep_on)
		goto out;
	pw->sleep_on = false;
	if (!dgpu || pw->state != 1)
		goto out;
	/* a dGPU that fell off the bus must not overwrite what was saved */
	present = pci_device_is_present(dgpu);
	for (fn = 0; fn < GMUX_DGPU_FUNCS; fn++) {
		f[fn] = pci_get_slot(dgpu->bus, PCI_DEVFN(PCI_SLOT(dgpu->devfn), fn));
		if (!f[fn] || !present)
			continue;
		pci_save_state(f[fn]);
		if (pw->sleep_state[fn] != PCI_D0 && pw->sleep_state[fn] != PCI_UNKNOWN)
			pci_set_power_state(f[fn], PCI_D3hot);
	}
	if (__gmux_power_set(gmux, false, GMUX_POWER_SWITCHEROO, present, false) < 0)
		dev_warn(&gmux->pnp->dev, "cannot cut the switched-off dGPU's power after the sleep\n");
	for (fn = 0; fn < GMUX_DGPU_FUNCS; fn++) {
		if (!f[fn])
			continue;
		/* what the PCI core noted before the sleep (hda_intel: D3cold) */
		if (pw->sleep_state[fn] != PCI_UNKNOWN)
			f[fn]->current_state = pw->sleep_state[fn];
		pci_dev_put(f[fn]);
	}
out:
	mutex_unlock(&pw->lock);
	pci_dev_put(dgpu);
}

static int gmux_power_pm_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct apple_gmux_ng *gmux = container_of(nb, struct apple_gmux_ng, power.pm_nb);

	switch (action) {
	case PM_HIBERNATION_PREPARE:
	case PM_SUSPEND_PREPARE:
		gmux_power_sleep_prepare(gmux);
		break;
	case PM_POST_HIBERNATION:
	case PM_POST_SUSPEND:
		gmux_power_sleep_done(gmux);
		break;
	}
	return NOTIFY_DONE;
}

static void gmux_power_devm_exit(void *data)
{
	struct apple_gmux_ng *gmux = data;

	unregister_pm_notifier(&gmux->power.pm_nb);
	/* removed between a sleep's PREPARE and POST: its driver believes it off */
	gmux_power_sleep_done(gmux);
}

/**
 * gmux_power_register() - look after a switched-off dGPU across sleeps
 * @gmux: the gmux, its vga_switcheroo handler set up
 *
 * Takes a dGPU that vga_switcheroo has switched OFF for off. Undone
 * through devm, which also ends a sleep's hold still in force.
 *
 * Return: 0, or a negative errno (everything undone).
 */
int gmux_power_register(struct apple_gmux_ng *gmux)
{
	struct gmux_power *pw = &gmux->power;
	enum vga_switcheroo_state vs = VGA_SWITCHEROO_NOT_FOUND;
	struct pci_dev *dgpu;
	int ret;

	/*
	 * A dGPU vga_switcheroo switched OFF before this module loaded (an
	 * earlier instance cut it and was unloaded): off, and the sleep
	 * hold applies. Asked before pw->lock: vga_switcheroo's lock comes
	 * first (the handler's power_state() takes pw->lock under it). For a
	 * client with driver power control (nouveau runpm=1) vga_switcheroo
	 * answers OFF whenever the GPU is runtime-suspended, powered or not:
	 * only a runtime-active GPU it calls OFF was switched off by hand.
	 */
	dgpu = gmux_power_dgpu(gmux);
	if (dgpu) {
		vs = vga_switcheroo_get_client_state(dgpu);
		if (!pm_runtime_enabled(&dgpu->dev) || !pm_runtime_active(&dgpu->dev))
			vs = VGA_SWITCHEROO_NOT_FOUND;
	}
	pci_dev_put(dgpu);
	mutex_lock(&pw->lock);
	if (vs == VGA_SWITCHEROO_OFF && pw->state < 0 && pw->off_by == GMUX_POWER_NOBODY) {
		gmux_power_account(pw);
		pw->state = 0;
		pw->off_by = GMUX_POWER_SWITCHEROO;
		dev_info(&gmux->pnp->dev, "dGPU switched off through vga_switcheroo before the driver loaded: taken as off\n");
	}
	mutex_unlock(&pw->lock);

	gmux->power.pm_nb.notifier_call = gmux_power_pm_notify;
	ret = register_pm_notifier(&gmux->power.pm_nb);
	if (ret)
		return ret;
	return devm_add_action_or_reset(&gmux->pnp->dev, gmux_power_devm_exit, gmux);
}

/**
 * gmux_power_link_found() - note the dGPU's firmware link handshake
 * @gmux: the gmux
 * @dgpu: the discrete GPU (function 0)
 *
 * If @dgpu's ACPI companion has PWRD (GFX0.PWRD on every dual-GPU Mac),
 * power changes from then on call PWRD(1) before the power is cut and
 * PWRD(0) once it is back.
 */
void gmux_power_link_found(struct apple_gmux_ng *gmux, struct pci_dev *dgpu)
{
	struct gmux_power *pw = &gmux->power;
	acpi_handle handle = ACPI_HANDLE(&dgpu->dev);

	if (!handle || !acpi_has_method(handle, "PWRD"))
		return;
	mutex_lock(&pw->lock);
	if (!pw->link_method) {
		/* an ACPI namespace node: it outlives the PCI device */
		pw->link_method = handle;
		dev_info(&gmux->pnp->dev, "dGPU %s: firmware link handshake %pfwf.PWRD\n",
			 pci_name(dgpu), acpi_fwnode_handle(ACPI_COMPANION(&dgpu->dev)));
	}
	mutex_unlock(&pw->lock);
}

/**
 * gmux_power_irq() - the notify handler saw GMUX_INT_POWER
 * @gmux: the gmux
 *
 * Called after the status was cleared; wakes a waiting power change.
 */
void gmux_power_irq(struct apple_gmux_ng *gmux)
{
	complete(&gmux->power.done);
}

/**
 * gmux_power_show() - the power record, for the debugfs switch file
 * @s: the file
 * @gmux: the gmux
 */
void gmux_power_show(struct seq_file *s, struct apple_gmux_ng *gmux)
{
	struct gmux_power *pw = &gmux->power;

	mutex_lock(&pw->lock);
	seq_printf(s, "dgpu_power: %s\n", pw->state < 0 ? "unknown" : pw->state ? "on" : "off");
	seq_printf(s, "dgpu_power_off_by: %s\n", gmux_power_user_names[pw->off_by]);
	seq_printf(s, "power_changes: %u\n", pw->changes);
	seq_printf(s, "power_failures: %u\n", pw->failures);
	seq_printf(s, "power_irq_missed: %u\n", pw->irq_missed);
	seq_printf(s, "link_handshake: %s\n", pw->link_method ? "PWRD" : "none");
	seq_printf(s, "link_downs: %u\n", pw->link_downs);
	seq_printf(s, "link_ups: %u\n", pw->link_ups);
	seq_printf(s, "link_failures: %u\n", pw->link_failures);
	seq_printf(s, "link_port_restores: %u\n", pw->port_restores);
	seq_printf(s, "link_us: %llu\n", div_u64(pw->link_ns, NSEC_PER_USEC));
	seq_printf(s, "power_time_us: %llu\n", div_u64(pw->ns, NSEC_PER_USEC));
	seq_printf(s, "power_wait_us: %llu\n", div_u64(pw->wait_ns, NSEC_PER_USEC));
	mutex_unlock(&pw->lock);
}

/**
 * gmux_power_user_name() - "none", "vga_switcheroo" or "runtime_pm"
 * @who: a user of the dGPU's power
 *
 * Return: its name, for logs, debugfs and sysfs.
 */
const char *gmux_power_user_name(enum gmux_power_user who)
{
	return gmux_power_user_names[who];
}

/**
 * gmux_power_init() - set up the dGPU power record
 * @gmux: the gmux, before its interrupt can fire
 */
void gmux_power_init(struct apple_gmux_ng *gmux)
{
	struct gmux_power *pw = &gmux->power;

	mutex_init(&pw->lock);
	BLOCKING_INIT_NOTIFIER_HEAD(&pw->events);
	init_completion(&pw->done);
	pw->state = -1;
	pw->off_by = GMUX_POWER_NOBODY;
	pw->since = ktime_get();
}

/**
 * gmux_power_register_notifier() - hear what the power owner is told
 * @gmux: the gmux
 * @nb: called with an enum gmux_power_event and the gmux
 *
 * The layers above the power owner (the runtime PM) learn this way what
 * the others (the display switch) did, so that no layer calls back up.
 */
void gmux_power_register_notifier(struct apple_gmux_ng *gmux, struct notifier_block *nb)
{
	blocking_notifier_chain_register(&gmux->power.events, nb);
}

/**
 * gmux_power_unregister_notifier() - undo gmux_power_register_notifier()
 * @gmux: the gmux
 * @nb: as registered; harmless if it is not
 */
void gmux_power_unregister_notifier(struct apple_gmux_ng *gmux, struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&gmux->power.events, nb);
}

/**
 * gmux_power_notify() - tell the power owner what changed for the dGPU
 * @gmux: the gmux
 * @event: what happened
 *
 * Passed on to every notifier registered. Sleeps.
 */
void gmux_power_notify(struct apple_gmux_ng *gmux, enum gmux_power_event event)
{
	blocking_notifier_call_chain(&gmux->power.events, event, gmux);
}
