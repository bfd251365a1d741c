// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for src/lib/mac_quirks.c (cmocka): the quirk table's
 * consistency (also against the model table) and the decisions for
 * machines described by a fake environment.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "macsupport/mac_model.h"
#include "macsupport/mac_quirks.h"

#define KV(a, b)	MAC_QUIRK_KV(a, b)

/* --- a fake machine ------------------------------------------------------- */

struct fake_pci {
	u16 vendor, device;
	unsigned int devfn;
	bool upstream;
};

struct fake_machine {
	const struct fake_pci *pci;
	size_t nr_pci;
	const char * const *acpi;	/* existing objects, "DEV:PATH" for relative ones */
	unsigned int nr_gpes;		/* GPEs 0 to nr_gpes - 1 exist; 0: not told */
	const char * const *wake;	/* devices that can wake it; NULL: not told */
	const struct fake_pci *asked;	/* what pci_find() last returned */
};

static void *fake_pci_find(void *ctx, u16 vendor, u16 device, unsigned int flags,
			   unsigned int devfn)
{
	struct fake_machine *m = ctx;
	size_t i;

	for (i = 0; i < m->nr_pci; i++) {
		const struct fake_pci *p = &m->pci[i];

		if (p->vendor != vendor || p->device != device)
			continue;
		if ((flags & MAC_QUIRK_PCI_UPSTREAM_PORT) && !p->upstream)
			continue;
		if ((flags & MAC_QUIRK_PCI_DEVFN) && p->devfn != devfn)
			continue;
		m->asked = p;
		return (void *)p;
	}
	return NULL;
}

static bool fake_acpi_exists(void *ctx, void *pci, const char *path)
{
	struct fake_machine *m = ctx;
	const char * const *a;
	char full[128];

	if (path[0] == '\\') {
		snprintf(full, sizeof(full), "%s", path);
	} else {
		if (!pci)
			return false;
		snprintf(full, sizeof(full), "%04x:%s", ((const struct fake_pci *)pci)->device,
			 path);
	}
	for (a = m->acpi; a && *a; a++)
		if (!strcmp(*a, full))
			return true;
	return false;
}

static bool fake_gpe_exists(void *ctx, unsigned int gpe)
{
	return gpe < ((struct fake_machine *)ctx)->nr_gpes;
}

static bool fake_acpi_can_wake(void *ctx, const char *path)
{
	const char * const *w;

	for (w = ((struct fake_machine *)ctx)->wake; *w; w++)
		if (!strcmp(*w, path))
			return true;
	return false;
}

static struct mac_quirk_decision decide(enum mac_quirk_id id, const char *product,
					unsigned int kernel, struct fake_machine *m,
					bool disabled)
{
	struct mac_quirk_env env = {
		.product = product, .kernel = kernel, .pci_find = fake_pci_find,
		.acpi_exists = fake_acpi_exists, .ctx = m,
		/* what the machine does not tell, the action finds out */
		.gpe_exists = m->nr_gpes ? fake_gpe_exists : NULL,
		.acpi_can_wake = m->wake ? fake_acpi_can_wake : NULL,
	};
	struct mac_quirk_decision d;

	memset(&d, 0x5a, sizeof(d));
	mac_quirk_decide(id, &env, disabled, &d);
	return d;
}

/* The one decision every quirk gets on @product: "act", a state name, or "n/a" */
static const char *outcome(const struct mac_quirk_decision *d)
{
	if (d->act)
		return "act";
	return mac_quirk_state_name(d->state);
}

static void expect_outcomes(const char *product, unsigned int kernel, struct fake_machine *m,
			    const char *const want[MAC_QUIRK_COUNT])
{
	unsigned int id;

	for (id = 0; id < MAC_QUIRK_COUNT; id++) {
		struct mac_quirk_decision d = decide(id, product, kernel, m, false);

		if (strcmp(outcome(&d), want[id]))
			fail_msg("%s: %s: got %s, want %s", product ? product : "(null)",
				 mac_quirk_name(id), outcome(&d), want[id]);
		if (d.state == MAC_QUIRK_NOT_APPLICABLE && !d.act && !d.row != !d.absent)
			fail_msg("%s: not applicable: a row set exactly when its target is absent",
				 mac_quirk_name(id));
	}
}

/* --- the table -------------------------------------------------------------- */

static void test_names_roundtrip(void **state)
{
	unsigned int id;

	(void)state;
	for (id = 0; id < MAC_QUIRK_COUNT; id++) {
		const char *name = mac_quirk_name(id);

		assert_string_not_equal(name, "invalid");
		assert_int_equal(mac_quirk_by_name(name, strlen(name)), id);
	}
	assert_int_equal(mac_quirk_by_name("gpe_stor", 8), MAC_QUIRK_COUNT);
	assert_int_equal(mac_quirk_by_name("gpe_storm_x", 11), MAC_QUIRK_COUNT);
	assert_int_equal(mac_quirk_by_name("gpe_storm,wake_sources", 9), MAC_QUIRK_GPE_STORM);
	assert_int_equal(mac_quirk_by_name("", 0), MAC_QUIRK_COUNT);
	assert_string_equal(mac_quirk_name(MAC_QUIRK_COUNT), "invalid");
	assert_string_equal(mac_quirk_state_name(MAC_QUIRK_CANNOT_APPLY), "cannot-apply");
	assert_string_equal(mac_quirk_state_name(MAC_QUIRK_NOT_APPLICABLE), "not-applicable");
	assert_string_equal(mac_quirk_state_name((enum mac_quirk_state)42), "invalid");
}

/* Every product the quirk table names is a model the model table knows. */
static void check_products(const struct mac_quirk *q)
{
	const char * const *p;

	for (p = q->match.products; p && *p; p++) {
		struct mac_model_id id;

		if (mac_model_parse(*p, &id) || !mac_model_lookup(&id))
			fail_msg("%s row names \"%s\", which the model table does not know",
				 mac_quirk_name(q->id), *p);
	}
}

static void test_table_consistent(void **state)
{
	unsigned int rows_of[MAC_QUIRK_COUNT] = { 0 };
	const struct mac_quirk *t;
	size_t n, i;

	(void)state;
	t = mac_quirk_table(&n);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		const struct mac_quirk *q = &t[i];
		char want[32];

		assert_true(q->id < MAC_QUIRK_COUNT);
		rows_of[q->id]++;
		if (!q->what || !*q->what || !q->source || !*q->source || !q->fix || !*q->fix)
			fail_msg("row %zu (%s) lacks what, source or fix", i, mac_quirk_name(q->id));
		check_products(q);
		/* the kernel's version: set exactly when the kernel's fix is named */
		if (!q->covered_since != !q->kernel_fix)
			fail_msg("row %zu: covered_since and kernel_fix disagree", i);
		switch (q->action) {
		case MAC_QUIRK_ACT_NONE:
			/* decided on the kernel version alone */
			if (!q->covered_since || q->reach != MAC_QUIRK_BOOT_ONLY)
				fail_msg("row %zu: no action, so it needs a kernel version", i);
			break;
		case MAC_QUIRK_ACT_MASK_GPE:
			assert_true(q->gpe <= 0xff);
			assert_int_equal(q->reach, MAC_QUIRK_MODULE_APPLIES);
			snprintf(want, sizeof(want), "acpi_mask_gpe=0x%02x", q->gpe);
			if (!strstr(q->fix, want))
				fail_msg("row %zu: fix \"%s\" lacks %s", i, q->fix, want);
			assert_non_null(q->match.products);
			break;
		case MAC_QUIRK_ACT_DISABLE_WAKE:
			assert_non_null(q->wake);
			assert_non_null(q->wake[0]);
			for (const char * const *w = q->wake; *w; w++) {
				const char *name = strrchr(*w, '.');

				assert_int_equal((*w)[0], '\\');
				/* /proc/acpi/wakeup names are four characters */
				assert_non_null(name);
				assert_int_equal(strlen(name + 1), 4);
				assert_non_null(strstr(q->fix, name + 1));
			}
			assert_non_null(q->match.products);
			break;
		case MAC_QUIRK_ACT_RESERVE:
			assert_true(q->size > 0);
			assert_true(q->start + q->size > q->start);
			assert_int_not_equal(q->match.pci_vendor, 0);
			break;
		case MAC_QUIRK_ACT_CHECK_OSI:
			assert_non_null(q->osi);
			break;
		case MAC_QUIRK_ACT_CHECK_S2IDLE:
			/* a kernel parameter only: checked, never applied */
			assert_int_equal(q->reach, MAC_QUIRK_MODULE_VERIFIES);
			assert_non_null(strstr(q->fix, "mem_sleep_default=s2idle"));
			assert_non_null(q->match.products);
			break;
		default:
			fail_msg("row %zu: unknown action %d", i, q->action);
		}
		/* relative ACPI paths need a PCI device to be relative to */
		for (const char * const *a = q->match.acpi; a && *a; a++)
			if ((*a)[0] != '\\' && !q->match.pci_vendor)
				fail_msg("row %zu: relative path %s without a PCI device", i, *a);
	}
	for (i = 0; i < MAC_QUIRK_COUNT; i++)
		if (!rows_of[i])
			fail_msg("quirk %s has no row", mac_quirk_name(i));
}

/* GPE numbers of the GPE-storm rows: the ones the issue and reference name */
static void test_gpe_rows(void **state)
{
	struct fake_machine none = { 0 };
	struct mac_quirk_decision d;

	(void)state;
	d = decide(MAC_QUIRK_GPE_STORM, "MacBookPro11,3", KV(6, 1), &none, false);
	assert_true(d.act);
	assert_int_equal(d.row->gpe, 0x06);
	d = decide(MAC_QUIRK_GPE_STORM, "MacBookPro12,1", KV(6, 1), &none, false);
	assert_int_equal(d.row->gpe, 0x4e);
	d = decide(MAC_QUIRK_GPE_STORM, "MacBookPro14,3", KV(6, 1), &none, false);
	assert_int_equal(d.row->gpe, 0x07);
	d = decide(MAC_QUIRK_GPE_STORM, "MacBookPro14,2", KV(6, 1), &none, false);
	assert_false(d.act);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
	assert_null(d.row);
}

/* --- decisions per machine ---------------------------------------------------- */

/*
 * Alpine Ridge sleep: MacBookPro14,1's S3 row is checked by the module (the
 * default sleep state); 14,2's wake row acts on its root ports and xHCIs,
 * and on a machine without any of them it cannot occur. Neither row is
 * any other Mac's.
 */
static void test_alpine_ridge_sleep(void **state)
{
	static const char * const wake_14_2[] = { "\\_SB.PCI0.RP05", NULL };
	static const char * const wake_none[] = { "\\_SB.PCI0.RP01", NULL };
	struct fake_machine none = { 0 };
	struct fake_machine m = { .wake = wake_14_2 };
	struct mac_quirk_decision d;
	const char * const *w;
	unsigned int n = 0;

	(void)state;
	d = decide(MAC_QUIRK_TB_AR_S3, "MacBookPro14,1", KV(6, 1), &none, false);
	assert_true(d.act);
	assert_int_equal(d.row->action, MAC_QUIRK_ACT_CHECK_S2IDLE);
	d = decide(MAC_QUIRK_TB_AR_S3, "MacBookPro14,1", KV(6, 12), &none, true);
	assert_int_equal(d.state, MAC_QUIRK_DISABLED);
	d = decide(MAC_QUIRK_TB_AR_S3, "MacBookPro13,3", KV(6, 1), &none, false);
	assert_false(d.act);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);

	d = decide(MAC_QUIRK_WAKE_SOURCES, "MacBookPro14,2", KV(6, 1), &m, false);
	assert_true(d.act);
	for (w = d.row->wake; *w; w++)
		n++;
	assert_int_equal(n, 4);
	assert_string_equal(d.row->wake[0], "\\_SB.PCI0.RP05");
	m.wake = wake_none;
	d = decide(MAC_QUIRK_WAKE_SOURCES, "MacBookPro14,2", KV(6, 1), &m, false);
	assert_false(d.act);
	assert_true(d.absent);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
	d = decide(MAC_QUIRK_WAKE_SOURCES, "MacBookPro14,1", KV(6, 1), &none, false);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
	assert_null(d.row);
}

static void test_mbp11_3(void **state)
{
	static const char *const want[MAC_QUIRK_COUNT] = {
		[MAC_QUIRK_GPE_STORM] = "act", [MAC_QUIRK_WAKE_SOURCES] = "act",
		[MAC_QUIRK_MBP_POWEROFF_WINDOW] = "not-applicable",
		[MAC_QUIRK_BCM4331_RESET] = "not-applicable",
		[MAC_QUIRK_APPLE_NVME] = "not-applicable",
		[MAC_QUIRK_TB_CR_S2IDLE] = "not-applicable",
		[MAC_QUIRK_OSI_DARWIN] = "act", [MAC_QUIRK_UEFI_SKIP_CERT] = "not-applicable",
		[MAC_QUIRK_TB_AR_S3] = "not-applicable",
	};
	/* 11,3 has the root port, but the power-off window is 11,4/11,5's */
	static const struct fake_pci pci[] = { { 0x8086, 0x8c10, 0xe0, false } };
	struct fake_machine m = { .pci = pci, .nr_pci = 1 };

	(void)state;
	expect_outcomes("MacBookPro11,3", KV(6, 1), &m, want);
}

static void test_mbp11_4_poweroff_window(void **state)
{
	static const struct fake_pci at_1c[] = { { 0x8086, 0x8c10, 0x1c << 3, false } };
	static const struct fake_pci at_1d[] = { { 0x8086, 0x8c10, 0x1d << 3, false } };
	struct fake_machine m = { .pci = at_1c, .nr_pci = 1 };
	struct mac_quirk_decision d;

	(void)state;
	d = decide(MAC_QUIRK_MBP_POWEROFF_WINDOW, "MacBookPro11,4", KV(6, 1), &m, false);
	assert_true(d.act);
	assert_ptr_equal(d.pci, &at_1c[0]);
	assert_int_equal(d.row->start, 0x7fa00000);
	assert_int_equal(d.row->size, 0x200000);
	d = decide(MAC_QUIRK_MBP_POWEROFF_WINDOW, "MacBookPro11,5", KV(4, 9), &m, false);
	assert_true(d.act);	/* an old kernel: the module reserves it itself */

	m.pci = at_1d;	/* the port elsewhere: not the machine the quirk is for */
	d = decide(MAC_QUIRK_MBP_POWEROFF_WINDOW, "MacBookPro11,4", KV(6, 1), &m, false);
	assert_false(d.act);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
	m.nr_pci = 0;
	d = decide(MAC_QUIRK_MBP_POWEROFF_WINDOW, "MacBookPro11,4", KV(6, 1), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
}

static void test_nvme_by_kernel(void **state)
{
	static const struct fake_pci t2[] = { { 0x106b, 0x2005, 0, false } };
	static const struct fake_pci mb[] = { { 0x106b, 0x2001, 0, false } };
	struct fake_machine m = { .pci = t2, .nr_pci = 1 };
	struct mac_quirk_decision d;

	(void)state;
	d = decide(MAC_QUIRK_APPLE_NVME, "MacBookPro15,1", KV(6, 1), &m, false);
	assert_false(d.act);
	assert_int_equal(d.state, MAC_QUIRK_COVERED);
	assert_ptr_equal(d.pci, &t2[0]);
	d = decide(MAC_QUIRK_APPLE_NVME, "MacBookPro15,1", KV(5, 10), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_CANNOT_APPLY);
	d = decide(MAC_QUIRK_APPLE_NVME, "MacBookPro15,1", KV(5, 15), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_COVERED);
	/* the PCI ID decides, not the model: a 2005 in an unknown Mac too */
	d = decide(MAC_QUIRK_APPLE_NVME, "Macmini10,1", KV(6, 12), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_COVERED);

	m.pci = mb;
	d = decide(MAC_QUIRK_APPLE_NVME, "MacBook8,1", KV(5, 3), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_CANNOT_APPLY);
	d = decide(MAC_QUIRK_APPLE_NVME, "MacBook8,1", KV(6, 1), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_COVERED);
}

static void test_cactus_ridge_needs_methods(void **state)
{
	static const struct fake_pci cr_up[] = { { 0x8086, 0x1547, 0, true } };
	static const struct fake_pci cr_nhi[] = { { 0x8086, 0x1547, 0, false } };
	static const char *const all[] = {
		"1547:DSB0.NHI0.SXIO", "1547:DSB0.NHI0.SXFP", "1547:DSB0.NHI0.SXLV", NULL
	};
	static const char *const two[] = { "1547:DSB0.NHI0.SXIO", "1547:DSB0.NHI0.SXFP", NULL };
	struct fake_machine m = { .pci = cr_up, .nr_pci = 1, .acpi = all };
	struct mac_quirk_decision d;

	(void)state;
	d = decide(MAC_QUIRK_TB_CR_S2IDLE, "MacBookPro10,1", KV(6, 1), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_COVERED);
	d = decide(MAC_QUIRK_TB_CR_S2IDLE, "MacBookPro10,1", KV(5, 10), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_CANNOT_APPLY);
	m.acpi = two;
	d = decide(MAC_QUIRK_TB_CR_S2IDLE, "MacBookPro10,1", KV(6, 1), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
	assert_null(d.pci);	/* the device of a row that did not match */
	m.acpi = all;
	m.pci = cr_nhi;	/* the IDs, but not an upstream port */
	d = decide(MAC_QUIRK_TB_CR_S2IDLE, "MacBookPro10,1", KV(6, 1), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
}

static void test_disabled_only_where_it_applies(void **state)
{
	struct fake_machine none = { 0 };
	struct mac_quirk_decision d;

	(void)state;
	d = decide(MAC_QUIRK_GPE_STORM, "MacBookPro11,3", KV(6, 1), &none, true);
	assert_false(d.act);
	assert_int_equal(d.state, MAC_QUIRK_DISABLED);
	assert_non_null(d.row);
	d = decide(MAC_QUIRK_GPE_STORM, "MacBookPro8,2", KV(6, 1), &none, true);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
	d = decide(MAC_QUIRK_UEFI_SKIP_CERT, "MacBookPro15,1", KV(6, 1), &none, true);
	assert_int_equal(d.state, MAC_QUIRK_DISABLED);
}

static void test_unknown_and_missing_product(void **state)
{
	static const char *const want[MAC_QUIRK_COUNT] = {
		[MAC_QUIRK_GPE_STORM] = "not-applicable", [MAC_QUIRK_WAKE_SOURCES] = "not-applicable",
		[MAC_QUIRK_MBP_POWEROFF_WINDOW] = "not-applicable",
		[MAC_QUIRK_BCM4331_RESET] = "not-applicable",
		[MAC_QUIRK_APPLE_NVME] = "not-applicable",
		[MAC_QUIRK_TB_CR_S2IDLE] = "not-applicable",
		[MAC_QUIRK_OSI_DARWIN] = "act", [MAC_QUIRK_UEFI_SKIP_CERT] = "not-applicable",
		[MAC_QUIRK_TB_AR_S3] = "not-applicable",
	};
	struct fake_machine none = { 0 };

	(void)state;
	expect_outcomes("Macmini10,1", KV(6, 1), &none, want);
	expect_outcomes(NULL, KV(6, 1), &none, want);
	expect_outcomes("", KV(6, 12), &none, want);
	/* a prefix of a listed model is not that model */
	expect_outcomes("MacBookPro11,", KV(6, 1), &none, want);
}

/*
 * A GPE the machine does not have cannot storm: MacBookPro12,1's row on a
 * machine with GPEs 0x00-0x3f only (q35's ICH9 block) is not applicable,
 * with the row named, also when disabled; where 0x4e exists it acts.
 */
static void test_gpe_absent(void **state)
{
	struct fake_machine m = { .nr_gpes = 0x40 };
	struct mac_quirk_decision d;

	(void)state;
	d = decide(MAC_QUIRK_GPE_STORM, "MacBookPro12,1", KV(6, 1), &m, false);
	assert_false(d.act);
	assert_true(d.absent);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
	assert_non_null(d.row);
	assert_int_equal(d.row->gpe, 0x4e);
	d = decide(MAC_QUIRK_GPE_STORM, "MacBookPro12,1", KV(6, 1), &m, true);
	assert_true(d.absent);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);

	d = decide(MAC_QUIRK_GPE_STORM, "MacBookPro11,4", KV(6, 1), &m, false);
	assert_true(d.act);	/* 0x06 is there */
	assert_false(d.absent);
	m.nr_gpes = 0x80;
	d = decide(MAC_QUIRK_GPE_STORM, "MacBookPro12,1", KV(6, 1), &m, false);
	assert_true(d.act);
	assert_false(d.absent);
	d = decide(MAC_QUIRK_GPE_STORM, "MacBookPro14,2", KV(6, 1), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
	assert_false(d.absent);	/* no row: nothing to be absent */
	assert_null(d.row);
}

/*
 * The wake row acts where at least one of its devices can wake the
 * machine, and is not applicable where none can (absent, or no _PRW).
 */
static void test_wake_absent(void **state)
{
	static const char *const none[] = { NULL };
	static const char *const lid[] = { "\\_SB.LID0", NULL };
	static const char *const other[] = { "\\_SB.PCI0.EHC1", NULL };
	struct fake_machine m = { .wake = none };
	struct mac_quirk_decision d;

	(void)state;
	d = decide(MAC_QUIRK_WAKE_SOURCES, "MacBookPro11,4", KV(6, 1), &m, false);
	assert_false(d.act);
	assert_true(d.absent);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
	assert_string_equal(d.row->wake[0], "\\_SB.PCI0.XHC1");
	d = decide(MAC_QUIRK_WAKE_SOURCES, "MacBookPro11,4", KV(6, 1), &m, true);
	assert_true(d.absent);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
	m.wake = other;	/* a wake device, but not one of the row's */
	d = decide(MAC_QUIRK_WAKE_SOURCES, "MacBookPro11,1", KV(6, 1), &m, false);
	assert_true(d.absent);

	m.wake = lid;	/* one of the two is enough */
	d = decide(MAC_QUIRK_WAKE_SOURCES, "MacBookPro11,4", KV(6, 1), &m, false);
	assert_true(d.act);
	assert_false(d.absent);
	d = decide(MAC_QUIRK_WAKE_SOURCES, "MacBookPro11,4", KV(6, 1), &m, true);
	assert_int_equal(d.state, MAC_QUIRK_DISABLED);
	assert_false(d.absent);
}

static void test_t2_and_bcm4331(void **state)
{
	static const struct fake_pci wifi[] = { { 0x14e4, 0x4331, 0x00, false } };
	struct fake_machine m = { .pci = wifi, .nr_pci = 1 };
	struct fake_machine none = { 0 };
	struct mac_quirk_decision d;

	(void)state;
	d = decide(MAC_QUIRK_UEFI_SKIP_CERT, "iMacPro1,1", KV(6, 1), &none, false);
	assert_int_equal(d.state, MAC_QUIRK_COVERED);
	d = decide(MAC_QUIRK_UEFI_SKIP_CERT, "MacBookPro14,3", KV(6, 1), &none, false);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
	d = decide(MAC_QUIRK_BCM4331_RESET, "iMac12,2", KV(6, 1), &m, false);
	assert_false(d.act);
	assert_int_equal(d.state, MAC_QUIRK_COVERED);
	assert_ptr_equal(d.pci, &wifi[0]);
	d = decide(MAC_QUIRK_BCM4331_RESET, "iMac12,2", KV(4, 6), &m, false);
	assert_int_equal(d.state, MAC_QUIRK_CANNOT_APPLY);
	d = decide(MAC_QUIRK_BCM4331_RESET, "iMac12,2", KV(6, 1), &none, false);
	assert_false(d.act);
	assert_int_equal(d.state, MAC_QUIRK_NOT_APPLICABLE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_roundtrip),
		cmocka_unit_test(test_table_consistent),
		cmocka_unit_test(test_gpe_rows),
		cmocka_unit_test(test_alpine_ridge_sleep),
		cmocka_unit_test(test_mbp11_3),
		cmocka_unit_test(test_mbp11_4_poweroff_window),
		cmocka_unit_test(test_nvme_by_kernel),
		cmocka_unit_test(test_cactus_ridge_needs_methods),
		cmocka_unit_test(test_disabled_only_where_it_applies),
		cmocka_unit_test(test_unknown_and_missing_product),
		cmocka_unit_test(test_t2_and_bcm4331),
		cmocka_unit_test(test_gpe_absent),
		cmocka_unit_test(test_wake_absent),
	};

	return cmocka_run_group_tests_name("mac_quirks", tests, NULL, NULL);
}
