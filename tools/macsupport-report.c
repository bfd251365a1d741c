// SPDX-License-Identifier: GPL-2.0
/*
 * macsupport-report: tell a Mac user what the macsupport bundle does on this
 * machine: which Mac it is (DMI and the bundle's model table), which of the
 * bundle's modules are loaded and bound to what, the state of each firmware
 * quirk that mac_quirks handles (and what the user can do about those it
 * cannot apply), the gmux, the Thunderbolt controllers and the Apple device
 * properties. Text by default, JSON with --json (schema:
 * Documentation/macsupport-report.schema.json). See macsupport-report.1.
 *
 * It only reads sysfs and procfs, needs no privilege and runs on any Linux
 * machine; on one that is not a Mac it says so (exit status 2).
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "macsupport/mac_model.h"
#include "macsupport/mac_fw.h"

#define __printf(a, b) __attribute__((format(printf, a, b)))

#ifndef MACSUPPORT_VERSION
#define MACSUPPORT_VERSION "unknown"
#endif

#define SCHEMA_VERSION	1
#define SCHEMA_FILE	"Documentation/macsupport-report.schema.json"

#define DMI_DIR		"/sys/class/dmi/id"
#define QUIRKS_DIR	"/sys/devices/platform/mac_quirks/quirks"
#define GMUX_DRV_DIR	"/sys/bus/pnp/drivers/apple_gmux_ng"
#define GMUX_BL_DIR	"/sys/class/backlight/gmux_backlight"
#define TB_CLASS_DIR	"/sys/class/tb_macpm"
#define PCI_DEV_DIR	"/sys/bus/pci/devices"
#define ACPI_TABLES_DIR	"/sys/firmware/acpi/tables"	/* --firmware */

/* Exit statuses; when several hold, the first in this order wins: 1, 2, 4, 3. */
enum {
	EXIT_OK = 0,		/* known Mac, no quirk needs the user */
	EXIT_ERROR = 1,		/* usage or internal error */
	EXIT_NOT_APPLE = 2,	/* not an Apple machine */
	EXIT_UNKNOWN_MODEL = 3,	/* a Mac the model table does not know */
	EXIT_ACTION = 4,	/* a quirk is cannot-apply or failed */
	EXIT_FW_DIFFERS = 5,	/* --firmware DIR: the tables differ from the model table */
};

#define STR_LEN		256	/* DMI strings, attribute values */
#define LINE_LEN	1024	/* one quirk line */
#define NAME_LEN	(NAME_MAX + 1)
#define MAX_BINDINGS	8	/* drivers per module */
#define MAX_DEVS	16	/* devices listed per driver */
#define MAX_QUIRKS	128
#define MAX_TB		8
#define MAX_ACTIONS	(MAX_QUIRKS + 8)

static const char *prog = "macsupport-report";
static const char *root = "";	/* --root, for tests */

enum quirk_state {
	Q_APPLIED,
	Q_COVERED,
	Q_NOT_APPLICABLE,
	Q_CANNOT_APPLY,
	Q_DISABLED,
	Q_FAILED,
	Q_UNKNOWN,	/* unreadable or not in the ABI's format */
	Q_STATES
};

static const char *const quirk_states[Q_STATES] = {
	[Q_APPLIED] = "applied",
	[Q_COVERED] = "covered",
	[Q_NOT_APPLICABLE] = "not-applicable",
	[Q_CANNOT_APPLY] = "cannot-apply",
	[Q_DISABLED] = "disabled",
	[Q_FAILED] = "failed",
	[Q_UNKNOWN] = "unknown",
};

/* A string read from a file; !ok: missing or unreadable (JSON null) */
struct value {
	bool ok;
	char s[STR_LEN];
};

struct binding {
	char bus[NAME_LEN];
	char drv[NAME_LEN];
	int ndevs;			/* devices found (at most MAX_DEVS listed) */
	char devs[MAX_DEVS][NAME_LEN];
};

/*
 * What a module serves without (or besides) a driver of its own: the
 * controllers tb_macpm powers, the devices whose properties apple_props
 * shows, mac_quirks's platform device.
 */
struct module {
	const char *name;
	bool loaded;
	int nbind;
	struct binding bind[MAX_BINDINGS];
	int nattached;			/* found (at most MAX_DEVS listed) */
	char attached[MAX_DEVS][NAME_LEN];
};

struct quirk {
	char name[NAME_LEN];
	enum quirk_state state;
	char reason[LINE_LEN];
	char fix[LINE_LEN];		/* "" when the line has none */
};

struct tb_ctrl {
	char nhi[NAME_LEN];
	struct value generation;
	struct value power_state;
	struct value stay_on_reason;
	struct value mechanism;		/* how the firmware switches its power */
	struct value plug_source;	/* how the firmware reports a plug */
	long power_cycles;		/* -1: unknown */
};

struct report {
	struct value vendor, product, board, bios, kernel;
	bool apple;
	bool parsed;			/* the product is a model identifier */
	struct mac_model_id id;
	const struct mac_model_info *model;

	struct module mods[4];

	bool quirks_dir;		/* mac_quirks's quirk directory exists */
	int nquirks;
	bool quirks_more;		/* more than MAX_QUIRKS */
	struct quirk *quirks;

	char gmux_dev[NAME_LEN];	/* the gmux apple_gmux_ng bound, or "" */
	struct value boot_gpu;
	bool backlight;
	long bl_brightness, bl_max;	/* -1: unknown */
	struct value dgpu_power;
	struct value dgpu_state;	/* dgpu_power/state: on, off, unknown */
	struct value dgpu_off_by;	/* dgpu_power/off_by */
	struct value dgpu_stay_on;
	char dgpu_dev[NAME_LEN];	/* the dGPU (PCI name), or "" if not found */
	char dgpu_driver[NAME_LEN];	/* its driver, or "" if it has none */

	int ntb;
	struct tb_ctrl tb[MAX_TB];

	int prop_devices;
	int prop_keys;

	int nactions;
	char *actions[MAX_ACTIONS];

	int status;
};

static const char *const bundle_modules[] = {
	"apple_gmux_ng", "apple_props", "tb_macpm", "mac_quirks",
};

enum { MOD_GMUX, MOD_PROPS, MOD_TB, MOD_QUIRKS };

/* What the bundle saved, and --measure (below print_text()) */
static void text_savings(void);
static void json_savings(void);
static void text_measure(void);
static void json_measure(void);

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: %s [--json] [--root DIR] [--measure [SECONDS] [--pairs N]]\n"
		"           [--firmware [--model ID]]\n"
		"       %s --firmware DIR [--model ID] [--json]\n"
		"       %s --help | --version\n"
		"\n"
		"Reports what the macsupport bundle does on this machine: the Mac model\n"
		"(DMI and the bundle's model table), the bundle's modules (loaded, bound\n"
		"to what), each firmware quirk of mac_quirks (applied, covered by the\n"
		"kernel, not applicable, cannot apply, disabled, failed; why, and the fix),\n"
		"the gmux, the Thunderbolt controllers and the Apple device properties.\n"
		"Reads sysfs and procfs only; needs no privilege (--measure and --firmware\n"
		"on this machine need root).\n"
		"\n"
		"  --json       one JSON object (schema: " SCHEMA_FILE ",\n"
		"               schema_version %d)\n"
		"  --root DIR   read DIR/sys and DIR/proc instead of /sys and /proc (testing)\n"
		"  --firmware [DIR]  check the ACPI tables against the model table: this\n"
		"               machine's (" ACPI_TABLES_DIR ", as root) in the\n"
		"               report, or alone those of DIR (DSDT.aml, SSDT*.aml,\n"
		"               or DIR/aml/ of a dump), the model from DIR's name\n"
		"  --model ID   the model to compare the tables with (e.g. MacBookPro11,3)\n"
		"  --measure [SECONDS]\n"
		"               on battery, as root: hold each device the bundle powers\n"
		"               down on for SECONDS (default 30), then let it go for as\n"
		"               long, N pairs; report the median difference in the\n"
		"               battery's discharge. Every device is given back as found\n"
		"  --pairs N    pairs of windows per device for --measure (default 3)\n"
		"  --version    print the version\n"
		"\n"
		"Exit status: 0 a known Mac and no quirk needs action; 1 usage or internal\n"
		"error; 2 not an Apple machine; 3 a Mac the model table does not know;\n"
		"4 a quirk cannot be applied or failed (the report says what to do).\n"
		"When several hold: 1 before 2 before 4 before 3. With --firmware DIR:\n"
		"0 the tables agree with the model table, 1 a table is refused or missing,\n"
		"3 a model the table does not know, 5 the tables differ.\n",
		prog, prog, prog, SCHEMA_VERSION);
}

static int errorf(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

/* path_of() - root + the formatted path; -ENAMETOOLONG if it does not fit */
static int __printf(3, 4)
path_of(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t n;
	int m;

	n = strlen(root);
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(buf, root, n);
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= len - n)
		return -ENAMETOOLONG;
	return 0;
}

/**
 * read_line() - the first line of a small file
 * @path: the file's full path
 * @buf: receives the line without its newline, cut at a NUL byte and
 *	 without trailing white space; at most @len - 1 bytes of the file
 * @len: size of @buf
 *
 * Only regular files are read (a FIFO or device in a made-up tree does not
 * block the tool).
 *
 * Return: 0, or -errno (@buf is then "").
 */
static int read_line(const char *path, char *buf, size_t len)
{
	struct stat st;
	size_t got = 0;
	ssize_t r;
	int fd, ret = 0;

	buf[0] = 0;
	do
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	while (got < len - 1) {
		r = read(fd, buf + got, len - 1 - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (r == 0)
			break;
		got += r;
		if (memchr(buf + got - r, '\n', r))
			break;
	}
	close(fd);
	if (ret) {
		buf[0] = 0;
		return ret;
	}
	buf[got] = 0;
	buf[strcspn(buf, "\n")] = 0;
	got = strlen(buf);
	while (got && (buf[got - 1] == ' ' || buf[got - 1] == '\t' || buf[got - 1] == '\r'))
		buf[--got] = 0;
	return 0;
}

/* read_value() - a value from root + a formatted path */
static void __printf(2, 3)
read_value(struct value *v, const char *fmt, ...)
{
	char path[PATH_MAX];
	size_t n = strlen(root);
	va_list ap;
	int m;

	v->ok = false;
	v->s[0] = 0;
	if (n >= sizeof(path))
		return;
	memcpy(path, root, n);
	va_start(ap, fmt);
	m = vsnprintf(path + n, sizeof(path) - n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= sizeof(path) - n)
		return;
	v->ok = !read_line(path, v->s, sizeof(v->s));
}

/* parse_long() - a decimal value of at least 0, or -1 */
static long parse_long(const struct value *v)
{
	char *end;
	long n;

	if (!v->ok || v->s[0] < '0' || v->s[0] > '9')
		return -1;
	errno = 0;
	n = strtol(v->s, &end, 10);
	if (errno || *end || n < 0)
		return -1;
	return n;
}

/* copy_str() - a string into a buffer, cut to fit */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = 0;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

/**
 * list_dir() - the entries of a directory
 * @path: the directory
 * @names: receives up to @max names, sorted
 * @max: size of @names
 * @links_only: only symbolic links, and not "module" (a driver's directory)
 *
 * Return: how many entries there are (may exceed @max), -errno.
 */
static int list_dir(const char *path, char (*names)[NAME_LEN], int max, bool links_only)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		/* ".", ".." and hidden files, which sysfs does not have */
		if (de->d_name[0] == '.')
			continue;
		if (links_only) {
			char p[PATH_MAX];
			struct stat st;

			if (!strcmp(de->d_name, "module"))
				continue;
			if (snprintf(p, sizeof(p), "%s/%s", path, de->d_name) >= (int)sizeof(p) ||
			    lstat(p, &st) || !S_ISLNK(st.st_mode))
				continue;
		}
		if (n < max)
			snprintf(names[n], NAME_LEN, "%s", de->d_name);
		n++;
	}
	closedir(d);
	if (max > 0)
		qsort(names, n < max ? n : max, sizeof(*names), cmp_names);
	return n;
}

/* add_action() - one thing the user can do (printf-like) */
static void __printf(2, 3)
add_action(struct report *r, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (r->nactions >= MAX_ACTIONS)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s)
		r->actions[r->nactions++] = s;
}

/* --- what the tool reads ------------------------------------------------ */

static const char *trim_left(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static void probe_machine(struct report *r)
{
	const char *vendor;

	read_value(&r->vendor, DMI_DIR "/sys_vendor");
	read_value(&r->product, DMI_DIR "/product_name");
	read_value(&r->board, DMI_DIR "/board_name");
	read_value(&r->bios, DMI_DIR "/bios_version");
	read_value(&r->kernel, "/proc/sys/kernel/osrelease");

	vendor = trim_left(r->vendor.s);
	r->apple = r->vendor.ok &&
		   (!strcmp(vendor, "Apple Inc.") || !strcmp(vendor, "Apple Computer, Inc."));
	if (!r->apple)
		return;
	r->parsed = r->product.ok && !mac_model_parse(trim_left(r->product.s), &r->id);
	if (r->parsed)
		r->model = mac_model_lookup(&r->id);
}

/* has_binding() - the module's list has the driver already */
static bool has_binding(const struct module *m, const char *bus, const char *drv)
{
	int i;

	for (i = 0; i < m->nbind; i++)
		if (!strcmp(m->bind[i].bus, bus) && !strcmp(m->bind[i].drv, drv))
			return true;
	return false;
}

/*
 * probe_named_drivers() - drivers named like the module on any bus: a PNP
 * driver (apple_gmux_ng's) has no owner, so /sys/module/<m>/drivers lacks it
 */
static void probe_named_drivers(struct module *m)
{
	char buses[32][NAME_LEN];
	char path[PATH_MAX];
	int i, n;

	if (path_of(path, sizeof(path), "/sys/bus"))
		return;
	n = list_dir(path, buses, 32, false);
	if (n > 32)
		n = 32;
	for (i = 0; i < n && m->nbind < MAX_BINDINGS; i++) {
		struct binding *b = &m->bind[m->nbind];

		if (has_binding(m, buses[i], m->name) ||
		    path_of(path, sizeof(path), "/sys/bus/%s/drivers/%s", buses[i], m->name) ||
		    !is_dir(path))
			continue;
		copy_str(b->bus, sizeof(b->bus), buses[i]);
		copy_str(b->drv, sizeof(b->drv), m->name);
		b->ndevs = list_dir(path, b->devs, MAX_DEVS, true);
		if (b->ndevs < 0)
			b->ndevs = 0;
		m->nbind++;
	}
}

static void probe_module(struct module *m)
{
	char ents[MAX_BINDINGS * 2][NAME_LEN];
	char path[PATH_MAX];
	int i, n;

	m->loaded = !path_of(path, sizeof(path), "/sys/module/%s", m->name) && is_dir(path);
	if (!m->loaded)
		return;
	if (path_of(path, sizeof(path), "/sys/module/%s/drivers", m->name))
		return;
	n = list_dir(path, ents, MAX_BINDINGS * 2, false);
	if (n > MAX_BINDINGS * 2)
		n = MAX_BINDINGS * 2;
	for (i = 0; i < n && m->nbind < MAX_BINDINGS; i++) {
		struct binding *b = &m->bind[m->nbind];
		char *colon = strchr(ents[i], ':');

		/* "<bus>:<driver>" */
		if (!colon || colon == ents[i] || !colon[1])
			continue;
		*colon = 0;
		copy_str(b->bus, sizeof(b->bus), ents[i]);
		copy_str(b->drv, sizeof(b->drv), colon + 1);
		if (path_of(path, sizeof(path), "/sys/bus/%s/drivers/%s", b->bus, b->drv))
			continue;
		b->ndevs = list_dir(path, b->devs, MAX_DEVS, true);
		if (b->ndevs < 0)
			b->ndevs = 0;
		m->nbind++;
	}
	probe_named_drivers(m);
}

/**
 * parse_quirk() - one line of the quirk ABI
 * @q: receives state, reason and fix
 * @line: "<state>: <reason>[; fix: <fix>]"
 *
 * A state the ABI does not name, or a line without one, is Q_UNKNOWN with
 * the whole line as the reason.
 */
static void parse_quirk(struct quirk *q, const char *line)
{
	const char *colon = strchr(line, ':');
	const char *rest, *fix;
	size_t n = colon ? (size_t)(colon - line) : strlen(line);
	int i;

	q->state = Q_UNKNOWN;
	q->fix[0] = 0;
	for (i = 0; i < Q_UNKNOWN; i++) {
		if (strlen(quirk_states[i]) == n && !strncmp(line, quirk_states[i], n)) {
			q->state = i;
			break;
		}
	}
	if (q->state == Q_UNKNOWN) {
		copy_str(q->reason, sizeof(q->reason), line);
		return;
	}
	rest = colon ? trim_left(colon + 1) : "";
	fix = strstr(rest, "; fix: ");
	if (fix) {
		snprintf(q->reason, sizeof(q->reason), "%.*s", (int)(fix - rest), rest);
		snprintf(q->fix, sizeof(q->fix), "%s", trim_left(fix + strlen("; fix: ")));
	} else {
		copy_str(q->reason, sizeof(q->reason), rest);
	}
}

static int probe_quirks(struct report *r)
{
	static char names[MAX_QUIRKS][NAME_LEN];
	char path[PATH_MAX];
	int i, n;

	if (path_of(path, sizeof(path), QUIRKS_DIR) || !is_dir(path))
		return 0;
	r->quirks_dir = true;
	n = list_dir(path, names, MAX_QUIRKS, false);
	if (n <= 0)
		return 0;
	if (n > MAX_QUIRKS) {
		r->quirks_more = true;
		n = MAX_QUIRKS;
	}
	r->quirks = calloc(n, sizeof(*r->quirks));
	if (!r->quirks)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct quirk *q = &r->quirks[i];
		char line[LINE_LEN];
		int err;

		copy_str(q->name, sizeof(q->name), names[i]);
		err = path_of(path, sizeof(path), QUIRKS_DIR "/%s", names[i]);
		if (!err)
			err = read_line(path, line, sizeof(line));
		if (err) {
			q->state = Q_UNKNOWN;
			snprintf(q->reason, sizeof(q->reason), "cannot read it: %s",
				 strerror(-err));
			continue;
		}
		parse_quirk(q, line);
	}
	r->nquirks = n;
	return 0;
}

/*
 * probe_dgpu() - the dGPU, the dgpu_power switch's first PCI consumer
 * (function 0; its audio is function 1), and its driver
 */
static void probe_dgpu(struct report *r)
{
	char names[32][NAME_LEN];
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	ssize_t len;
	int i, n;

	if (path_of(path, sizeof(path), GMUX_DRV_DIR "/%s/dgpu_power", r->gmux_dev))
		return;
	n = list_dir(path, names, 32, false);
	for (i = 0; i < n && i < 32; i++)
		if (!strncmp(names[i], "consumer:pci:", strlen("consumer:pci:")))
			break;
	if (i >= n || i >= 32)
		return;
	copy_str(r->dgpu_dev, sizeof(r->dgpu_dev), names[i] + strlen("consumer:pci:"));
	if (path_of(path, sizeof(path), PCI_DEV_DIR "/%s/driver", r->dgpu_dev))
		return;
	len = readlink(path, link, sizeof(link) - 1);
	if (len <= 0)
		return;
	link[len] = 0;
	base = strrchr(link, '/');
	copy_str(r->dgpu_driver, sizeof(r->dgpu_driver), base ? base + 1 : link);
}

static void probe_gmux(struct report *r)
{
	char path[PATH_MAX];
	char devs[1][NAME_LEN];
	struct value v;

	r->bl_brightness = -1;
	r->bl_max = -1;
	if (!path_of(path, sizeof(path), GMUX_DRV_DIR) &&
	    list_dir(path, devs, 1, true) > 0) {
		copy_str(r->gmux_dev, sizeof(r->gmux_dev), devs[0]);
		read_value(&r->boot_gpu, GMUX_DRV_DIR "/%s/boot_gpu", r->gmux_dev);
		read_value(&r->dgpu_power, GMUX_DRV_DIR "/%s/dgpu_power/power/runtime_status",
			   r->gmux_dev);
		read_value(&r->dgpu_stay_on, GMUX_DRV_DIR "/%s/dgpu_power/stay_on_reason",
			   r->gmux_dev);
		read_value(&r->dgpu_state, GMUX_DRV_DIR "/%s/dgpu_power/state", r->gmux_dev);
		read_value(&r->dgpu_off_by, GMUX_DRV_DIR "/%s/dgpu_power/off_by", r->gmux_dev);
		probe_dgpu(r);
	}
	r->backlight = !path_of(path, sizeof(path), GMUX_BL_DIR) && is_dir(path);
	if (r->backlight) {
		read_value(&v, GMUX_BL_DIR "/brightness");
		r->bl_brightness = parse_long(&v);
		read_value(&v, GMUX_BL_DIR "/max_brightness");
		r->bl_max = parse_long(&v);
	}
}

static void probe_tb(struct report *r)
{
	char nhis[MAX_TB][NAME_LEN];
	char path[PATH_MAX];
	int i, n;

	if (path_of(path, sizeof(path), TB_CLASS_DIR))
		return;
	n = list_dir(path, nhis, MAX_TB, false);
	if (n > MAX_TB)
		n = MAX_TB;
	for (i = 0; i < n; i++) {
		struct tb_ctrl *c = &r->tb[r->ntb];
		struct value v;

		copy_str(c->nhi, sizeof(c->nhi), nhis[i]);
		read_value(&c->generation, TB_CLASS_DIR "/%s/generation", c->nhi);
		read_value(&c->power_state, TB_CLASS_DIR "/%s/power_state", c->nhi);
		read_value(&c->stay_on_reason, TB_CLASS_DIR "/%s/stay_on_reason", c->nhi);
		read_value(&c->mechanism, TB_CLASS_DIR "/%s/mechanism", c->nhi);
		read_value(&c->plug_source, TB_CLASS_DIR "/%s/plug_source", c->nhi);
		read_value(&v, TB_CLASS_DIR "/%s/power_cycles", c->nhi);
		c->power_cycles = parse_long(&v);
		r->ntb++;
	}
}

/* Devices with an apple_properties directory, and their property files */
static void probe_props(struct report *r)
{
	struct module *m = &r->mods[MOD_PROPS];
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (path_of(path, sizeof(path), PCI_DEV_DIR))
		return;
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char p[PATH_MAX];
		int n;

		if (de->d_name[0] == '.')
			continue;
		if (path_of(p, sizeof(p), PCI_DEV_DIR "/%s/apple_properties", de->d_name) ||
		    !is_dir(p))
			continue;
		r->prop_devices++;
		n = list_dir(p, NULL, 0, false);
		if (n > 0)
			r->prop_keys += n;
		if (m->loaded && m->nattached < MAX_DEVS)
			copy_str(m->attached[m->nattached], NAME_LEN, de->d_name);
		if (m->loaded)
			m->nattached++;
	}
	closedir(d);
	qsort(m->attached, m->nattached < MAX_DEVS ? m->nattached : MAX_DEVS,
	      sizeof(m->attached[0]), cmp_names);
}

/* What tb_macpm and mac_quirks serve */
static void probe_attached(struct report *r)
{
	struct module *tb = &r->mods[MOD_TB], *mq = &r->mods[MOD_QUIRKS];
	char path[PATH_MAX];
	int i;

	for (i = 0; tb->loaded && i < r->ntb && i < MAX_DEVS; i++)
		copy_str(tb->attached[tb->nattached++], NAME_LEN, r->tb[i].nhi);
	if (mq->loaded && !path_of(path, sizeof(path), "/sys/devices/platform/mac_quirks") &&
	    is_dir(path))
		copy_str(mq->attached[mq->nattached++], NAME_LEN, "platform/mac_quirks");
}

static bool quirk_needs_action(const struct quirk *q)
{
	return q->state == Q_CANNOT_APPLY || q->state == Q_FAILED;
}

/* What the user can do, and the exit status */
static void conclude(struct report *r)
{
	const struct mac_model_info *m = r->model;
	bool action = false;
	int i;

	if (!r->apple) {
		r->status = EXIT_NOT_APPLE;
		return;
	}
	if (!m)
		add_action(r,
			   "Your model (%s) is not in the bundle's model table: the modules work without it, but the bundle does not know this Mac's gmux, Thunderbolt or quirks. Please report the model with this output.",
			   r->product.ok && r->product.s[0] ? trim_left(r->product.s) : "no product name");
	for (i = 0; i < r->nquirks; i++) {
		const struct quirk *q = &r->quirks[i];

		if (!quirk_needs_action(q))
			continue;
		action = true;
		if (q->fix[0])
			add_action(r, "%s (%s): %s", q->name, quirk_states[q->state], q->fix);
		else
			add_action(r, "%s (%s): %s", q->name, quirk_states[q->state],
				   q->reason[0] ? q->reason : "see the kernel log (dmesg | grep mac_quirks)");
	}
	if (!r->mods[MOD_QUIRKS].loaded)
		add_action(r, "Load mac_quirks to see and apply this Mac's firmware quirks: sudo modprobe mac_quirks");
	else if (!r->quirks_dir)
		add_action(r, "mac_quirks is loaded but " QUIRKS_DIR " is missing: is it an older mac_quirks? Reinstall the bundle.");
	if (m && (m->gmux == MAC_GMUX_CLASSIC || m->gmux == MAC_GMUX_INDEXED ||
		  m->gmux == MAC_GMUX_T2) && !r->gmux_dev[0])
		add_action(r, "Load apple_gmux_ng for the gmux (GPU switching, backlight, dGPU power): sudo modprobe apple_gmux_ng");
	if (m && m->tb != MAC_TB_NONE && !r->mods[MOD_TB].loaded)
		add_action(r, "Load tb_macpm to power the Thunderbolt controller down when idle: sudo modprobe tb_macpm");
	if (!r->mods[MOD_PROPS].loaded)
		add_action(r, "Load apple_props to see the firmware's device properties: sudo modprobe apple_props");

	if (action)
		r->status = EXIT_ACTION;
	else if (!m)
		r->status = EXIT_UNKNOWN_MODEL;
	else
		r->status = EXIT_OK;
}

static const char *status_name(int status)
{
	switch (status) {
	case EXIT_OK:
		return "ok";
	case EXIT_NOT_APPLE:
		return "not-apple";
	case EXIT_UNKNOWN_MODEL:
		return "unknown-model";
	case EXIT_ACTION:
		return "action-needed";
	}
	return "error";
}

/* --- output: strings ---------------------------------------------------- */

/**
 * utf8_len() - length of the valid UTF-8 sequence at @s
 * @s: NUL-terminated bytes
 *
 * Return: 1 to 4, or 0 for an invalid sequence (overlong forms, surrogates
 * and code points above U+10FFFF are invalid).
 */
static int utf8_len(const unsigned char *s)
{
	unsigned int c = s[0], cp, min;
	int n, i;

	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0) {
		n = 2;
		cp = c & 0x1f;
		min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3;
		cp = c & 0x0f;
		min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4;
		cp = c & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* put_text() - a string for a terminal: control bytes and invalid UTF-8 as '?' */
static void put_text(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	while (*s) {
		n = utf8_len(s);
		if (!n || (n == 1 && (*s < 0x20 || *s == 0x7f))) {
			putchar('?');
			s++;
			continue;
		}
		fwrite(s, 1, n, stdout);
		s += n;
	}
}

/* put_json_str() - a JSON string; invalid UTF-8 bytes become U+FFFD */
static void put_json_str(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	putchar('"');
	while (*s) {
		n = utf8_len(s);
		if (!n) {
			fputs("\\ufffd", stdout);
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, n, stdout);
			s += n;
			continue;
		}
		switch (*s) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		case '\r':
			fputs("\\r", stdout);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f)
				printf("\\u%04x", *s);
			else
				putchar(*s);
		}
		s++;
	}
	putchar('"');
}

/* --- output: JSON ------------------------------------------------------- */

#define JSON_DEPTH 8
static int jdepth;
static bool jmore[JSON_DEPTH];	/* the container at that depth has a member */

/* jkey() - separator, indentation and key (NULL inside an array) */
static void jkey(const char *key)
{
	int i;

	if (jdepth > 0) {
		if (jmore[jdepth])
			putchar(',');
		putchar('\n');
		for (i = 0; i < jdepth; i++)
			fputs("  ", stdout);
		jmore[jdepth] = true;
	}
	if (key) {
		put_json_str(key);
		fputs(": ", stdout);
	}
}

static void jopen(const char *key, char c)
{
	jkey(key);
	putchar(c);
	if (jdepth < JSON_DEPTH - 1)
		jdepth++;
	jmore[jdepth] = false;
}

static void jclose(char c)
{
	int i;

	if (jmore[jdepth]) {
		putchar('\n');
		for (i = 0; i < jdepth - 1; i++)
			fputs("  ", stdout);
	}
	if (jdepth > 0)
		jdepth--;
	putchar(c);
}

static void jstr(const char *key, const char *v)
{
	jkey(key);
	if (v)
		put_json_str(v);
	else
		fputs("null", stdout);
}

static void jval(const char *key, const struct value *v)
{
	jstr(key, v->ok ? v->s : NULL);
}

/* jint() - a count or a number that cannot be negative; null if @v < 0 */
static void jint(const char *key, long v)
{
	jkey(key);
	if (v < 0)
		fputs("null", stdout);
	else
		printf("%ld", v);
}

/* jlong() - an integer whose negative values mean something: as it is */
static void jlong(const char *key, long v)
{
	jkey(key);
	printf("%ld", v);
}

static void jbool(const char *key, bool v)
{
	jkey(key);
	fputs(v ? "true" : "false", stdout);
}

static void jnull(const char *key)
{
	jkey(key);
	fputs("null", stdout);
}

static void json_model(const struct report *r)
{
	const struct mac_model_info *m = r->model;

	if (!r->apple) {
		jnull("model");
		return;
	}
	jopen("model", '{');
	if (r->parsed) {
		char id[MAC_MODEL_FAMILY_MAX + 16];

		snprintf(id, sizeof(id), "%s%u,%u", r->id.family, r->id.major, r->id.minor);
		jstr("identifier", id);
	} else {
		jnull("identifier");
	}
	jbool("known", m);
	jstr("name", m ? m->desc : NULL);
	jstr("gmux", m ? mac_gmux_kind_name(m->gmux) : NULL);
	if (m) {
		jopen("thunderbolt", '{');
		jstr("generation", mac_tb_gen_name(m->tb));
		jint("count", m->tb_count);
		jclose('}');
	} else {
		jnull("thunderbolt");
	}
#ifdef MAC_GPU_ALL	/* the table has gpus and t2 */
	if (m) {
		jopen("gpus", '[');
		if (m->gpus & MAC_GPU_INTEGRATED)
			jstr(NULL, "integrated");
		if (m->gpus & MAC_GPU_DISCRETE)
			jstr(NULL, "discrete");
		if (m->gpus & MAC_GPU_MUXED)
			jstr(NULL, "muxed");
		jclose(']');
		jkey("t2");
		fputs(m->t2 ? "true" : "false", stdout);
	} else {
		jnull("gpus");
		jnull("t2");
	}
#else
	jnull("gpus");
	jnull("t2");
#endif
	jclose('}');
}

/* --- the firmware check (--firmware) ------------------------------------ */

/*
 * The machine's ACPI tables (root only), or a dump folder's DSDT.aml and
 * SSDT*.aml, read by src/lib/mac_fw.c and compared with the model table.
 * Kept apart from the rest of the report: it reads files, not sysfs
 * attributes, and only when asked.
 */
#define FW_MAX_FILE	(16 << 20)	/* no DSDT comes near */

static void field(const char *label, const char *v);
#define FW_MAX_ERRORS	MAC_FW_MAX_TABLES
/* files listed in a folder: its tables and whatever else a dump keeps */
#define FW_MAX_FILES	(MAC_FW_MAX_TABLES * 4)

struct fw_table {
	char file[NAME_LEN];
	char sig[5];
	long length;			/* the header's Length, -1 without a header */
	const char *error;		/* why it was refused, or NULL */
	size_t offset;
};

static struct {
	bool want;			/* --firmware */
	const char *dir;		/* its DIR, or NULL: this machine's tables */
	const char *model_opt;		/* --model */
	char source[PATH_MAX];
	const char *model_from;		/* "dmi", "option", "folder name" */
	char model[MAC_MODEL_FAMILY_MAX + 16];	/* "" if none */
	const struct mac_model_info *info;
	const char *error;		/* the tables could not be listed */
	int ntables;
	/* one more: "too many" in the place of what was not read */
	struct fw_table tables[MAC_FW_MAX_TABLES + 1];
	struct mac_fw_error errs[MAC_FW_MAX_TABLES + 1];
	int nbad;
	struct mac_fw *fw;
	u8 *bufs[MAC_FW_MAX_TABLES + 1];
} fwr;

/* fw_is_table() - a name the tool reads: DSDT and SSDT files */
static bool fw_is_table(const char *name, bool dump)
{
	size_t n = strlen(name);

	if (!dump)	/* sysfs: DSDT, SSDT1, SSDT2, ... */
		return !strcmp(name, "DSDT") || !strncmp(name, "SSDT", 4);
	return n > 4 && (!strncasecmp(name, "DSDT", 4) || !strncasecmp(name, "SSDT", 4)) &&
	       !strcasecmp(name + n - 4, ".aml");
}

/* fw_read_file() - a whole regular file, at most FW_MAX_FILE bytes */
static u8 *fw_read_file(const char *path, size_t *len, const char **error)
{
	struct stat st;
	size_t got = 0, size = 65536;
	u8 *buf = NULL, *nbuf;
	ssize_t r;
	int fd;

	*error = NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*error = errno == EACCES || errno == EPERM ?
			 "cannot be read: permission denied (run as root)" : "cannot be opened";
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		*error = "not a regular file";
		return NULL;
	}
	/* sysfs gives the size of a table file; read until the end anyway */
	for (;;) {
		if (!buf || got == size) {
			if (buf)
				size *= 2;
			if (size > FW_MAX_FILE + 1)
				size = FW_MAX_FILE + 1;
			nbuf = realloc(buf, size);
			if (!nbuf) {
				*error = "out of memory";
				break;
			}
			buf = nbuf;
		}
		r = read(fd, buf + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*error = errno == EACCES || errno == EPERM ?
				 "cannot be read: permission denied (run as root)" :
				 "cannot be read";
			break;
		}
		if (!r)
			break;
		got += r;
		if (got > FW_MAX_FILE) {
			*error = "larger than 16 MiB: not an ACPI table";
			break;
		}
	}
	close(fd);
	if (*error) {
		free(buf);
		return NULL;
	}
	*len = got;
	return buf;
}

/* fw_model() - the model compared with: --model, the folder's name, DMI */
static void fw_model(const struct report *r)
{
	struct mac_model_id id;
	char name[PATH_MAX];
	const char *s = NULL;
	size_t n;

	if (fwr.model_opt) {
		s = fwr.model_opt;
		fwr.model_from = "option";
	} else if (fwr.dir) {
		/* ".../MacBookPro11,3" or ".../MacBookPro11,3/aml" */
		copy_str(name, sizeof(name), fwr.dir);
		n = strlen(name);
		while (n > 1 && name[n - 1] == '/')
			name[--n] = 0;
		s = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
		if (!strcmp(s, "aml") && s > name + 1) {
			name[s - name - 1] = 0;
			s = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
		}
		fwr.model_from = "folder name";
	} else if (r->apple && r->product.ok) {
		s = trim_left(r->product.s);
		fwr.model_from = "dmi";
	}
	fwr.model[0] = 0;
	fwr.info = NULL;
	if (!s || mac_model_parse(s, &id))
		return;
	snprintf(fwr.model, sizeof(fwr.model), "%s%u,%u", id.family, id.major, id.minor);
	fwr.info = mac_model_lookup(&id);
}

static int fw_cmp_tables(const void *a, const void *b)
{
	const char *x = a, *y = b;

	/* DSDT first, then the SSDTs in the firmware's order (SSDT2 before SSDT10) */
	if (!strncasecmp(x, "DSDT", 4) != !strncasecmp(y, "DSDT", 4))
		return strncasecmp(x, "DSDT", 4) ? 1 : -1;
	return strverscmp(x, y);
}

/*
 * fw_too_many() - what was not read, in the table list as a refused entry
 * (the spare place of fwr.tables): a check of part of the firmware must
 * not say it agrees
 */
static void fw_too_many(const char *file, const char *what, int room, const char *missed)
{
	struct mac_fw_error *e = &fwr.errs[fwr.ntables];
	struct fw_table *t = &fwr.tables[fwr.ntables++];

	memset(t, 0, sizeof(*t));
	copy_str(t->file, sizeof(t->file), file);
	t->length = -1;
	snprintf(e->msg, sizeof(e->msg), "too many %s: the check has room for %d, %s", what, room,
		 missed);
	t->error = e->msg;
	fwr.nbad++;
}

/* fw_load() - list, read and add every table; Return: 0, or -1 if none could be listed */
static int fw_load(void)
{
	static char names[FW_MAX_FILES][NAME_LEN];
	char dirs[2][PATH_MAX];
	int ndirs = 0, d, i, n;

	fwr.fw = calloc(1, sizeof(*fwr.fw));
	if (!fwr.fw) {
		fwr.error = "out of memory";
		return -1;
	}
	mac_fw_init(fwr.fw);
	if (fwr.dir) {
		/* a MAC_DUMPS folder keeps its tables in aml/ */
		snprintf(fwr.source, sizeof(fwr.source), "%s", fwr.dir);
		if (snprintf(dirs[0], sizeof(dirs[0]), "%s/aml", fwr.dir) < (int)sizeof(dirs[0]) &&
		    !is_dir(dirs[0]))
			snprintf(dirs[0], sizeof(dirs[0]), "%s", fwr.dir);
		ndirs = 1;
	} else {
		snprintf(fwr.source, sizeof(fwr.source), "%s", ACPI_TABLES_DIR);
		if (path_of(dirs[0], sizeof(dirs[0]), ACPI_TABLES_DIR) ||
		    path_of(dirs[1], sizeof(dirs[1]), ACPI_TABLES_DIR "/dynamic")) {
			fwr.error = "path too long";
			return -1;
		}
		ndirs = is_dir(dirs[1]) ? 2 : 1;
	}
	for (d = 0; d < ndirs; d++) {
		n = list_dir(dirs[d], names, ARRAY_SIZE(names), false);
		if (n < 0 && d == 0) {
			fwr.error = n == -EACCES ? "cannot be listed: permission denied" :
				    "no such folder, or it cannot be listed";
			return -1;
		}
		if (n > (int)ARRAY_SIZE(names)) {
			/* which were listed is the file system's order: any table may be missed */
			fw_too_many(d ? "dynamic/" : "./", "files in the folder", FW_MAX_FILES,
				    "its tables were not read");
			break;
		}
		qsort(names, n < 0 ? 0 : n, sizeof(*names), fw_cmp_tables);
		for (i = 0; i < n; i++) {
			struct fw_table *t;
			char path[PATH_MAX];
			const char *error;
			size_t len = 0;
			u8 *buf;

			if (!fw_is_table(names[i], fwr.dir))
				continue;
			if (fwr.ntables == MAC_FW_MAX_TABLES) {
				snprintf(path, sizeof(path), "%s%s", d ? "dynamic/" : "", names[i]);
				fw_too_many(path, "tables", MAC_FW_MAX_TABLES,
					    "this one and those after it were not read");
				goto done;
			}
			t = &fwr.tables[fwr.ntables];
			memset(t, 0, sizeof(*t));
			snprintf(t->file, sizeof(t->file), "%s%s", d ? "dynamic/" : "", names[i]);
			t->length = -1;
			if (snprintf(path, sizeof(path), "%s/%s", dirs[d], names[i]) >=
			    (int)sizeof(path))
				continue;
			fwr.ntables++;
			buf = fw_read_file(path, &len, &error);
			if (!buf) {
				t->error = error;
				fwr.nbad++;
				continue;
			}
			fwr.bufs[fwr.ntables - 1] = buf;
			if (len >= 8) {
				memcpy(t->sig, buf, 4);
				t->length = (long)buf[4] | (long)buf[5] << 8 | (long)buf[6] << 16 |
					    (long)buf[7] << 24;
			}
			if (mac_fw_add_table(fwr.fw, buf, len, &fwr.errs[fwr.ntables - 1])) {
				t->error = fwr.errs[fwr.ntables - 1].msg;
				t->offset = fwr.errs[fwr.ntables - 1].offset;
				fwr.nbad++;
			}
		}
	}
done:
	if (!fwr.ntables) {
		fwr.error = "no DSDT or SSDT in it";
		return -1;
	}
	return 0;
}

/* fw_run() - the check; Return: the exit status of --firmware DIR */
static int fw_run(const struct report *r)
{
	fw_model(r);
	if (fw_load())
		return EXIT_ERROR;
	mac_fw_finish(fwr.fw, fwr.info, fwr.model[0] ? fwr.model : NULL);
	if (fwr.nbad)
		return EXIT_ERROR;
	if (fwr.fw->ndiffs)
		return EXIT_FW_DIFFERS;
	return fwr.info ? EXIT_OK : EXIT_UNKNOWN_MODEL;
}

static void fw_free(void)
{
	int i;

	for (i = 0; i < fwr.ntables; i++)
		free(fwr.bufs[i]);
	free(fwr.fw);
}

static const char *fw_status(void)
{
	if (fwr.error || fwr.nbad)
		return "error";
	if (fwr.fw->ndiffs)
		return "differs";
	return fwr.info ? "agrees" : "unknown-model";
}

static void fw_methods(const struct mac_fw_tb *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s%s%s", t->xrpe ? " XRPE" : "", t->trpe ? " TRPE" : "",
		 t->xril ? " XRIL" : "", t->has_xrin ? " XRIN" : "", t->sxfp ? " SXFP" : "",
		 t->sxio_sxlv ? " SXIO SXLV" : "",
		 t->rtpc ? (t->rtpc_writes ? " RTPC" : " RTPC(stub)") : "");
}

static void fw_plug_text(const struct mac_fw_tb *t, char *buf, size_t len)
{
	if (t->mechanism && t->xril && t->has_xrin)
		snprintf(buf, len, "GPE 0x%02x (XRIN)", t->xrin);
	else if (t->nplug < 0)
		snprintf(buf, len, "unknown: an SSDT could not be walked");
	else if (t->nplug != 1)
		snprintf(buf, len, "none: %d GPE methods in %s's scope", t->nplug,
			 t->rp[0] ? t->rp : "the root port");
	else if (t->plug.pad)
		snprintf(buf, len, "GPE 0x%02x, %s (\\_GPE._%c%02X in %s's scope), flips pad 0x%08x",
			 t->plug.gpe, t->plug.level ? "level" : "edge", t->plug.level ? 'L' : 'E',
			 t->plug.gpe, t->rp, t->plug.pad);
	else
		snprintf(buf, len, "GPE 0x%02x, %s (\\_GPE._%c%02X in %s's scope)", t->plug.gpe,
			 t->plug.level ? "level" : "edge", t->plug.level ? 'L' : 'E', t->plug.gpe,
			 t->rp);
}

static void fw_text(void)
{
	const struct mac_fw *fw = fwr.fw;
	const struct mac_fw_gmux *g;
	char buf[LINE_LEN], m[128];
	int i, dsdt = 0, folders = 0;
	unsigned int k;

	printf("\nFirmware (ACPI tables)\n");
	field("source:", fwr.source);
	if (fwr.error) {
		field("error:", fwr.error);
		return;
	}
	for (i = 0; i < fwr.ntables; i++) {
		dsdt += !strncasecmp(fwr.tables[i].file, "DSDT", 4);
		/* a folder's "too many files": no table */
		folders += fwr.tables[i].file[strlen(fwr.tables[i].file) - 1] == '/';
	}
	snprintf(buf, sizeof(buf), "%d (%d DSDT, %d SSDT), %d refused", fwr.ntables - folders,
		 dsdt, fwr.ntables - folders - dsdt, fwr.nbad);
	field("tables:", buf);
	for (i = 0; i < fwr.ntables; i++) {
		const struct fw_table *t = &fwr.tables[i];

		if (!t->error)
			continue;
		if (t->length >= 0)
			snprintf(buf, sizeof(buf), "%s: %s (at byte %zu)", t->file, t->error,
				 t->offset);
		else
			snprintf(buf, sizeof(buf), "%s: %s", t->file, t->error);
		field("error:", buf);
	}
	if (fwr.model[0])
		snprintf(buf, sizeof(buf), "%s (%s), %s", fwr.model, fwr.model_from,
			 fwr.info ? "in the model table" :
				    "not in the model table: the firmware alone");
	else
		snprintf(buf, sizeof(buf), "none%s: the firmware alone",
			 fwr.model_from ? " that parses" :
			 fwr.dir ? " given (--model)" : " (DMI names no Mac)");
	field("model:", buf);

	g = &fw->gmux;
	if (!g->count) {
		field("gmux:", "no APP000B device");
	} else {
		snprintf(buf, sizeof(buf), "%s: APP000B%s%s%s, %s", g->path, g->cid[0] ? " \"" : "",
			 g->cid, g->cid[0] ? "\"" : "",
			 g->res == MAC_FW_RES_IO ? "I/O ports" :
			 g->res == MAC_FW_RES_MMIO ? "memory" : "no I/O or memory range");
		if (g->res != MAC_FW_RES_NONE)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 " at 0x%04x, 0x%x bytes (%s)%s", g->base, g->len,
				 g->res == MAC_FW_RES_IO ? "classic or indexed" : "T2",
				 g->crs_method ? ", _CRS a method" : "");
		if (g->gpe >= 0)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "; GPE 0x%02x (%s)",
				 g->gpe, g->gpe_from);
		if (g->count > 1)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 "; %u APP000B devices", g->count);
		field("gmux:", buf);
	}

	snprintf(buf, sizeof(buf), "%u controller%s with XRPE or TRPE%s", fw->ntb,
		 fw->ntb == 1 ? "" : "s", fw->tb_more ? " (and more, not listed)" : "");
	field("thunderbolt:", buf);
	for (k = 0; k < fw->ntb; k++) {
		const struct mac_fw_tb *t = &fw->tb[k];

		printf("    %s:\n", t->nhi);
		fw_methods(t, m, sizeof(m));
		printf("      %s;%s\n", t->kind, m);
		fw_plug_text(t, m, sizeof(m));
		printf("      power: %s; plug: %s\n", t->mechanism ? t->mechanism : "none", m);
		if (t->stay_on)
			printf("      tb_macpm would leave it on: %s\n", t->stay_on);
	}
	for (k = 0; k < fw->nchecks; k++) {
		snprintf(buf, sizeof(buf), "%s %s: %s", fw->checks[k].quirk, fw->checks[k].what,
			 fw->checks[k].found);
		field(k ? "" : "quirks:", buf);
	}
	if (!fw->nchecks)
		field("quirks:", "the quirk table names no GPE or wake device for it");
	if (!fw->ndiffs)
		field("differs:", fwr.nbad ? "nothing in the tables read, but some were refused" :
			 fwr.info ? "nothing: the firmware is what the model table says" :
				    "not compared: the model table does not know the model");
	for (k = 0; k < fw->ndiffs; k++)
		field(k ? "" : "differs:", fw->diffs[k]);
}

static void fw_json(void)
{
	const struct mac_fw *fw = fwr.fw;
	const struct mac_fw_gmux *g;
	char m[128];
	unsigned int k;
	int i;

	jopen("firmware", '{');
	jstr("status", fw_status());
	jstr("source", fwr.source);
	jstr("error", fwr.error);
	jstr("model", fwr.model[0] ? fwr.model : NULL);
	jstr("model_from", fwr.model_from);
	jbool("known", fwr.info);
	jopen("tables", '[');
	for (i = 0; i < fwr.ntables; i++) {
		const struct fw_table *t = &fwr.tables[i];

		jopen(NULL, '{');
		jstr("file", t->file);
		jstr("signature", t->sig[0] ? t->sig : NULL);
		jint("length", t->length);
		jstr("error", t->error);
		jint("offset", t->error && t->length >= 0 ? (long)t->offset : -1);
		jclose('}');
	}
	jclose(']');
	if (fwr.error) {
		jnull("gmux");
		jopen("thunderbolt", '[');
		jclose(']');
		jopen("quirks", '[');
		jclose(']');
		jopen("differences", '[');
		jclose(']');
		jclose('}');
		return;
	}
	g = &fw->gmux;
	if (g->count) {
		jopen("gmux", '{');
		jstr("path", g->path);
		jstr("cid", g->cid[0] ? g->cid : NULL);
		jstr("resource", mac_fw_res_name(g->res));
		jint("base", g->res != MAC_FW_RES_NONE ? (long)g->base : -1);
		jint("length", g->res != MAC_FW_RES_NONE ? (long)g->len : -1);
		jint("gpe", g->gpe);
		jstr("gpe_from", g->gpe >= 0 ? g->gpe_from : NULL);
		jint("count", g->count);
		jclose('}');
	} else {
		jnull("gmux");
	}
	jopen("thunderbolt", '[');
	for (k = 0; k < fw->ntb; k++) {
		const struct mac_fw_tb *t = &fw->tb[k];
		char *p, *s;

		jopen(NULL, '{');
		jstr("nhi", t->nhi);
		jstr("root_port", t->rp[0] ? t->rp : NULL);
		jstr("kind", t->kind);
		jopen("methods", '[');
		fw_methods(t, m, sizeof(m));
		for (p = strtok_r(m, " ", &s); p; p = strtok_r(NULL, " ", &s))
			jstr(NULL, p);
		jclose(']');
		jint("xrin", t->has_xrin ? (long)t->xrin : -1);
		/* the schema's -1: an SSDT could not be walked */
		jlong("plug_methods", t->nplug);
		if (t->nplug == 1) {
			jopen("plug_gpe", '{');
			jint("gpe", t->plug.gpe);
			jstr("trigger", t->plug.level ? "level" : "edge");
			jint("pad", t->plug.pad ? (long)t->plug.pad : -1);
			jclose('}');
		} else {
			jnull("plug_gpe");
		}
		jstr("mechanism", t->mechanism);
		jstr("stay_on_reason", t->stay_on);
		jclose('}');
	}
	jclose(']');
	jopen("quirks", '[');
	for (k = 0; k < fw->nchecks; k++) {
		jopen(NULL, '{');
		jstr("quirk", fw->checks[k].quirk);
		jstr("names", fw->checks[k].what);
		jstr("found", fw->checks[k].found);
		jbool("ok", fw->checks[k].ok);
		jclose('}');
	}
	jclose(']');
	jopen("differences", '[');
	for (k = 0; k < fw->ndiffs; k++)
		jstr(NULL, fw->diffs[k]);
	jclose(']');
	jclose('}');
}

/* fw_only() - --firmware DIR: a report on the folder's tables alone */
static int fw_only(bool json)
{
	static const struct report none;
	int status = fw_run(&none);

	if (json) {
		jopen(NULL, '{');
		jint("schema_version", SCHEMA_VERSION);
		jstr("tool_version", MACSUPPORT_VERSION);
		fw_json();
		jclose('}');
		putchar('\n');
	} else {
		printf("macsupport-report %s --firmware\n", MACSUPPORT_VERSION);
		fw_text();
	}
	fw_free();
	if (fflush(stdout) || ferror(stdout))
		return errorf(EXIT_ERROR, "cannot write the report");
	return status;
}

static void print_json(const struct report *r)
{
	int i, j, k;

	jopen(NULL, '{');
	jint("schema_version", SCHEMA_VERSION);
	jstr("tool_version", MACSUPPORT_VERSION);
	jstr("status", status_name(r->status));
	jint("exit_code", r->status);

	jopen("machine", '{');
	jval("sys_vendor", &r->vendor);
	jval("product_name", &r->product);
	jval("board_name", &r->board);
	jval("bios_version", &r->bios);
	jval("kernel", &r->kernel);
	jbool("apple", r->apple);
	jclose('}');
	json_model(r);

	jopen("modules", '[');
	for (i = 0; i < 4; i++) {
		const struct module *m = &r->mods[i];

		jopen(NULL, '{');
		jstr("name", m->name);
		jbool("loaded", m->loaded);
		jopen("bound", '[');
		for (j = 0; j < m->nbind; j++) {
			const struct binding *b = &m->bind[j];

			jopen(NULL, '{');
			jstr("bus", b->bus);
			jstr("driver", b->drv);
			jint("device_count", b->ndevs);
			jopen("devices", '[');
			for (k = 0; k < b->ndevs && k < MAX_DEVS; k++)
				jstr(NULL, b->devs[k]);
			jclose(']');
			jclose('}');
		}
		jclose(']');
		jint("attached_count", m->nattached);
		jopen("attached", '[');
		for (j = 0; j < m->nattached && j < MAX_DEVS; j++)
			jstr(NULL, m->attached[j]);
		jclose(']');
		jclose('}');
	}
	jclose(']');

	jopen("quirks", '{');
	jbool("available", r->quirks_dir);
	jbool("truncated", r->quirks_more);
	jopen("list", '[');
	for (i = 0; i < r->nquirks; i++) {
		const struct quirk *q = &r->quirks[i];

		jopen(NULL, '{');
		jstr("name", q->name);
		jstr("state", quirk_states[q->state]);
		jstr("reason", q->reason);
		jstr("fix", q->fix[0] ? q->fix : NULL);
		jclose('}');
	}
	jclose(']');
	jclose('}');

	jopen("gmux", '{');
	jstr("kind", r->model ? mac_gmux_kind_name(r->model->gmux) : NULL);
	jbool("bound", r->gmux_dev[0]);
	jstr("device", r->gmux_dev[0] ? r->gmux_dev : NULL);
	jval("boot_gpu", &r->boot_gpu);
	jval("dgpu_power", &r->dgpu_power);
	jval("dgpu_stay_on_reason", &r->dgpu_stay_on);
	jval("dgpu_power_state", &r->dgpu_state);
	jval("dgpu_off_by", &r->dgpu_off_by);
	jstr("dgpu_device", r->dgpu_dev[0] ? r->dgpu_dev : NULL);
	jstr("dgpu_driver", r->dgpu_driver[0] ? r->dgpu_driver : NULL);
	if (r->backlight) {
		jopen("backlight", '{');
		jint("brightness", r->bl_brightness);
		jint("max_brightness", r->bl_max);
		jclose('}');
	} else {
		jnull("backlight");
	}
	jclose('}');

	jopen("thunderbolt", '{');
	jstr("generation", r->model ? mac_tb_gen_name(r->model->tb) : NULL);
	jint("count", r->model ? (long)r->model->tb_count : -1);
	jopen("controllers", '[');
	for (i = 0; i < r->ntb; i++) {
		const struct tb_ctrl *c = &r->tb[i];

		jopen(NULL, '{');
		jstr("nhi", c->nhi);
		jval("generation", &c->generation);
		jval("power_state", &c->power_state);
		jval("stay_on_reason", &c->stay_on_reason);
		jval("mechanism", &c->mechanism);
		jval("plug_source", &c->plug_source);
		jint("power_cycles", c->power_cycles);
		jclose('}');
	}
	jclose(']');
	jclose('}');

	jopen("apple_properties", '{');
	jint("devices", r->prop_devices);
	jint("properties", r->prop_keys);
	jclose('}');

	if (fwr.want)
		fw_json();
	json_savings();
	json_measure();

	jopen("actions", '[');
	for (i = 0; i < r->nactions; i++)
		jstr(NULL, r->actions[i]);
	jclose(']');
	jclose('}');
	putchar('\n');
}

/* --- output: text ------------------------------------------------------- */

/* field() - "  label:  value" with the value cleaned for the terminal */
static void field(const char *label, const char *v)
{
	printf("  %-15s", label);
	put_text(v);
	putchar('\n');
}

static void vfield(const char *label, const struct value *v)
{
	field(label, v->ok ? (v->s[0] ? v->s : "(empty)") : "(not available)");
}

/* The dGPU's power from dgpu_power/state and off_by (apple_gmux_ng) */
static const char *dgpu_state_text(const struct report *r)
{
	const char *by = r->dgpu_off_by.ok ? r->dgpu_off_by.s : "";

	if (!strcmp(r->dgpu_state.s, "on"))
		return "powered";
	if (!strcmp(r->dgpu_state.s, "off"))
		return !strcmp(by, "vga_switcheroo") ?
		       "powered off (switched OFF through vga_switcheroo)" :
		       !strcmp(by, "runtime_pm") ? "powered off (runtime PM)" : "powered off";
	if (!strcmp(r->dgpu_state.s, "unknown") && strcmp(by, "none") && by[0])
		return "power not known: the gmux did not confirm the last change";
	/* no change made since the module loaded: runtime PM's view */
	if (r->dgpu_power.ok && !strcmp(r->dgpu_power.s, "suspended"))
		return "powered off (suspended)";
	return r->dgpu_power.ok ? r->dgpu_power.s : r->dgpu_state.s;
}

static void text_machine(const struct report *r)
{
	const struct mac_model_info *m = r->model;
	char buf[STR_LEN + 64];

	printf("Machine\n");
	vfield("vendor:", &r->vendor);
	vfield("product:", &r->product);
	vfield("board:", &r->board);
	vfield("BIOS:", &r->bios);
	vfield("kernel:", &r->kernel);
	if (!r->apple) {
		field("model:", r->vendor.ok ?
		      "not an Apple machine: the macsupport modules do nothing here" :
		      "not an Apple machine (no DMI vendor): the macsupport modules do nothing here");
		return;
	}
	if (!m) {
		if (r->parsed)
			snprintf(buf, sizeof(buf), "unknown model: %s%u,%u is not in the bundle's model table",
				 r->id.family, r->id.major, r->id.minor);
		else
			snprintf(buf, sizeof(buf), "unknown model: the product name is not an Apple model identifier");
		field("model:", buf);
		return;
	}
	snprintf(buf, sizeof(buf), "%s%u,%u, %s", m->family, m->major, m->minor, m->desc);
	field("model:", buf);
#ifdef MAC_GPU_ALL	/* the table has gpus and t2 */
	snprintf(buf, sizeof(buf), "%s%s%s%s",
		 m->gpus & MAC_GPU_INTEGRATED ? "integrated" : "",
		 (m->gpus & MAC_GPU_INTEGRATED) && (m->gpus & MAC_GPU_DISCRETE) ? " + " : "",
		 m->gpus & MAC_GPU_DISCRETE ? "discrete" : "",
		 m->gpus & MAC_GPU_MUXED ? " (muxed: the gmux switches the panel)" : "");
	field("GPUs:", buf[0] ? buf : "(not known)");
#endif
	field("gmux:", mac_gmux_kind_name(m->gmux));
	if (m->tb == MAC_TB_NONE)
		snprintf(buf, sizeof(buf), "none");
	else
		snprintf(buf, sizeof(buf), "%s, %u controller%s", mac_tb_gen_name(m->tb),
			 m->tb_count, m->tb_count == 1 ? "" : "s");
	field("Thunderbolt:", buf);
#ifdef MAC_GPU_ALL	/* the table has gpus and t2 */
	field("T2:", m->t2 ? "yes" : "no");
#endif
}

/* put_list() - up to MAX_DEVS names, and how many more there are */
static void put_list(const char (*names)[NAME_LEN], int n)
{
	int k;

	for (k = 0; k < n && k < MAX_DEVS; k++) {
		if (k)
			printf(", ");
		put_text(names[k]);
	}
	if (n > MAX_DEVS)
		printf(" and %d more", n - MAX_DEVS);
}

static void text_modules(const struct report *r)
{
	int i, j;

	printf("\nModules\n");
	for (i = 0; i < 4; i++) {
		const struct module *m = &r->mods[i];

		printf("  %-15s", m->name);
		if (!m->loaded) {
			printf("not loaded\n");
			continue;
		}
		printf("loaded");
		for (j = 0; j < m->nbind; j++) {
			const struct binding *b = &m->bind[j];

			printf("%s driver ", j ? ";" : ",");
			put_text(b->bus);
			putchar(':');
			put_text(b->drv);
			if (!b->ndevs) {
				printf(" bound to no device");
				continue;
			}
			printf(" bound to ");
			put_list(b->devs, b->ndevs);
		}
		if (m->nattached) {
			printf("%s %s ", m->nbind ? ";" : ",",
			       i == MOD_TB ? "powers" : i == MOD_PROPS ? "shows properties of" :
			       "device");
			put_list(m->attached, m->nattached);
		}
		if (!m->nbind && !m->nattached)
			printf(", serves no device");
		putchar('\n');
	}
}

static void text_quirks(const struct report *r)
{
	int i;

	printf("\nQuirks (mac_quirks)\n");
	if (!r->quirks_dir) {
		if (!r->apple)
			printf("  none: not an Apple machine\n");
		else if (!r->mods[MOD_QUIRKS].loaded)
			printf("  unknown: mac_quirks is not loaded (load it: sudo modprobe mac_quirks)\n");
		else
			printf("  unknown: mac_quirks is loaded but does not show its quirks in sysfs\n");
		return;
	}
	if (!r->nquirks)
		printf("  none listed\n");
	for (i = 0; i < r->nquirks; i++) {
		const struct quirk *q = &r->quirks[i];

		printf("  ");
		put_text(q->name);
		printf(": %s", quirk_states[q->state]);
		if (q->reason[0]) {
			printf(": ");
			put_text(q->reason);
		}
		putchar('\n');
		if (q->fix[0]) {
			printf("      fix: ");
			put_text(q->fix);
			putchar('\n');
		}
	}
	if (r->quirks_more)
		printf("  (only the first %d are shown)\n", MAX_QUIRKS);
}

static void text_hardware(const struct report *r)
{
	const struct mac_model_info *m = r->model;
	char buf[STR_LEN * 2];
	int i;

	printf("\ngmux\n");
	if (!r->apple)
		field("kind:", "none (not an Apple machine)");
	else if (!m)
		field("kind:", "not known (unknown model)");
	else if (m->gmux == MAC_GMUX_FAKE)
		field("kind:", "fake: the firmware declares a gmux that is not there");
	else
		field("kind:", mac_gmux_kind_name(m->gmux));
	if (r->gmux_dev[0]) {
		snprintf(buf, sizeof(buf), "apple_gmux_ng bound to %s", r->gmux_dev);
		field("driver:", buf);
		if (r->boot_gpu.ok)
			field("next boot GPU:", r->boot_gpu.s);
		if (r->dgpu_state.ok)
			field("discrete GPU:", dgpu_state_text(r));
		else if (r->dgpu_power.ok)
			field("discrete GPU:", !strcmp(r->dgpu_power.s, "suspended") ?
			      "powered off (suspended)" : r->dgpu_power.s);
		if (r->dgpu_dev[0] && !r->dgpu_driver[0]) {
			/* blacklisted: apple_gmux_ng cuts it unless something keeps it */
			if (r->dgpu_state.ok && !strcmp(r->dgpu_state.s, "off"))
				copy_str(buf, sizeof(buf), "none: the dGPU has no driver: cut");
			else if (r->dgpu_stay_on.ok && strcmp(r->dgpu_stay_on.s, "none"))
				snprintf(buf, sizeof(buf),
					 "none: the dGPU has no driver: kept on because %s",
					 r->dgpu_stay_on.s);
			else
				copy_str(buf, sizeof(buf),
					 "none: the dGPU has no driver: cut once unused");
			field("dGPU driver:", buf);
		} else {
			if (r->dgpu_driver[0])
				field("dGPU driver:", r->dgpu_driver);
			if (r->dgpu_stay_on.ok && strcmp(r->dgpu_stay_on.s, "none"))
				field("powered because:", r->dgpu_stay_on.s);
		}
	} else if (r->apple && m && m->gmux != MAC_GMUX_NONE && m->gmux != MAC_GMUX_FAKE) {
		field("driver:", "not bound: apple_gmux_ng is not loaded or did not bind");
	}
	if (r->backlight) {
		if (r->bl_brightness >= 0 && r->bl_max >= 0)
			snprintf(buf, sizeof(buf), "gmux_backlight, %ld of %ld",
				 r->bl_brightness, r->bl_max);
		else
			snprintf(buf, sizeof(buf), "gmux_backlight");
		field("backlight:", buf);
	}

	printf("\nThunderbolt\n");
	if (m && m->tb != MAC_TB_NONE)
		snprintf(buf, sizeof(buf), "%s, %u controller%s", mac_tb_gen_name(m->tb),
			 m->tb_count, m->tb_count == 1 ? "" : "s");
	else
		copy_str(buf, sizeof(buf), m ? "none" : r->apple ? "not known (unknown model)" :
			 "none (not an Apple machine)");
	field("model table:", buf);
	if (!r->ntb)
		field("tb_macpm:", r->mods[MOD_TB].loaded ? "controls no controller" :
		      "not loaded");
	for (i = 0; i < r->ntb; i++) {
		const struct tb_ctrl *c = &r->tb[i];

		printf("  ");
		put_text(c->nhi);
		printf(": ");
		put_text(c->generation.ok ? c->generation.s : "?");
		printf(", power ");
		put_text(c->power_state.ok ? c->power_state.s : "?");
		if (c->power_cycles >= 0)
			printf(", %ld power-down%s", c->power_cycles,
			       c->power_cycles == 1 ? "" : "s");
		if (c->stay_on_reason.ok && strcmp(c->stay_on_reason.s, "none")) {
			printf(", stays on: ");
			put_text(c->stay_on_reason.s);
		}
		putchar('\n');
		if (c->mechanism.ok || c->plug_source.ok) {
			printf("    power: ");
			put_text(c->mechanism.ok ? c->mechanism.s : "?");
			printf("; plug: ");
			put_text(c->plug_source.ok ? c->plug_source.s : "?");
			putchar('\n');
		}
	}

	printf("\nApple device properties\n");
	if (r->prop_devices)
		printf("  %d device%s with %d propert%s\n", r->prop_devices,
		       r->prop_devices == 1 ? "" : "s", r->prop_keys,
		       r->prop_keys == 1 ? "y" : "ies");
	else
		printf("  no device shows any%s\n",
		       r->mods[MOD_PROPS].loaded ? "" : " (apple_props is not loaded)");
}

static void print_text(const struct report *r)
{
	int i;

	printf("macsupport-report %s\n\n", MACSUPPORT_VERSION);
	text_machine(r);
	text_modules(r);
	text_quirks(r);
	text_hardware(r);
	if (fwr.want)
		fw_text();
	text_savings();
	text_measure();

	printf("\nSummary\n  ");
	switch (r->status) {
	case EXIT_NOT_APPLE:
		printf("This is not an Apple machine: the macsupport bundle has nothing to do here.\n");
		return;
	case EXIT_UNKNOWN_MODEL:
		printf("An Apple machine of an unknown model: nothing needs your action, but the bundle knows little about it.\n");
		break;
	case EXIT_ACTION:
		printf("Some quirks need your action (see below).\n");
		break;
	default:
		printf("Everything the bundle knows of is in order.\n");
	}
	/* --firmware leaves the exit status alone: what it found is said here */
	if (fwr.want && fwr.error)
		printf("  The firmware check read no table (see Firmware).\n");
	else if (fwr.want && fwr.nbad)
		printf("  The firmware check refused %d of the %d tables (see Firmware): it covers the others only.\n",
		       fwr.nbad, fwr.ntables);
	if (fwr.want && !fwr.error && fwr.fw->ndiffs)
		printf("  The firmware differs from the model table in %u point%s (see Firmware).\n",
		       fwr.fw->ndiffs, fwr.fw->ndiffs == 1 ? "" : "s");
	if (r->nactions)
		printf("\nWhat you can do\n");
	for (i = 0; i < r->nactions; i++) {
		printf("  - ");
		put_text(r->actions[i]);
		putchar('\n');
	}
}

/* --- what the bundle saved: residency and an estimate in watts ---------- */

/*
 * Published figures of what one idle device costs while powered, for the
 * estimate. Each says where it comes from, in the text and the JSON; none
 * was measured on the machine the report runs on (--measure does that).
 *
 * Thunderbolt 1 and 2: 1.7 W. Lukas Wunner's measurement of a Light Ridge
 * MacBook Pro with his (unmerged) Thunderbolt runtime-PM patches: 12.2 W
 * with the idle controller powered, 10.5 W with it powered down (as issue
 * 37 and /work/shared/reference/thunderbolt.md quote it; about 4 W is
 * "reportedly" saved on the 4-channel Cactus/Falcon Ridge, not confirmed,
 * so 1.7 W is used for every Thunderbolt 1/2 controller).
 *
 * Thunderbolt 3 (Alpine/Titan Ridge): no published per-controller figure
 * was found (owners' reports give whole-machine idle draws only): no
 * estimate.
 *
 * The dGPU: 10.2 W. t2linux owners' report of a MacBookPro15,3 (Radeon Pro
 * Vega): 23.9 W with the dGPU powered, 13.7 W with an out-of-tree gmux
 * runtime-PM mode cutting it (t2linux/linux-t2-patches#56). Older and
 * smaller dGPUs likely draw less.
 */
#define SAVE_TB12_W		1.7
#define SAVE_TB12_SOURCE	"1.7 W: 12.2 -> 10.5 W, Lukas Wunner's Light Ridge MacBook Pro with Thunderbolt runtime PM"
#define SAVE_TB3_SOURCE		"none: no published per-controller figure for Thunderbolt 3"
#define SAVE_DGPU_W		10.2
#define SAVE_DGPU_SOURCE	"10.2 W: 23.9 -> 13.7 W, a MacBookPro15,3 (Radeon Pro Vega) of t2linux owners, linux-t2-patches#56"

#define MAX_SAVE	(MAX_TB + 1)

/* One device the bundle powers down: a Thunderbolt controller or the dGPU */
struct saving {
	char dev[NAME_LEN];		/* PCI name: the NHI, or the dGPU */
	bool dgpu;
	char gen[STR_LEN];		/* Thunderbolt generation; "" for the dGPU */
	long on_ms, off_ms;		/* -1: unknown */
	struct value stay_on;		/* why it stays powered now */
	double watts;			/* published idle draw; < 0: none */
	const char *source;
};

static struct {
	int n;
	struct saving s[MAX_SAVE];
} savings;

/* is_tb3() - a Thunderbolt 3 generation, as tb_macpm's generation names it */
static bool is_tb3(const char *gen)
{
	return strstr(gen, "alpine") || strstr(gen, "titan") || strstr(gen, "Alpine") ||
	       strstr(gen, "Titan");
}

static void probe_savings(const struct report *r)
{
	struct saving *s;
	struct value v;
	int i;

	for (i = 0; i < r->ntb && savings.n < MAX_SAVE; i++) {
		const struct tb_ctrl *c = &r->tb[i];

		s = &savings.s[savings.n++];
		copy_str(s->dev, sizeof(s->dev), c->nhi);
		copy_str(s->gen, sizeof(s->gen), c->generation.ok ? c->generation.s : "?");
		read_value(&v, TB_CLASS_DIR "/%s/on_ms", c->nhi);
		s->on_ms = parse_long(&v);
		read_value(&v, TB_CLASS_DIR "/%s/off_ms", c->nhi);
		s->off_ms = parse_long(&v);
		s->stay_on = c->stay_on_reason;
		if (!c->generation.ok) {
			s->watts = -1;
			s->source = "none: the generation is not known";
		} else if (is_tb3(c->generation.s)) {
			s->watts = -1;
			s->source = SAVE_TB3_SOURCE;
		} else {
			s->watts = SAVE_TB12_W;
			s->source = SAVE_TB12_SOURCE;
		}
	}
	if (!r->gmux_dev[0] || (!r->dgpu_state.ok && !r->dgpu_dev[0]) || savings.n >= MAX_SAVE)
		return;
	s = &savings.s[savings.n++];
	s->dgpu = true;
	copy_str(s->dev, sizeof(s->dev), r->dgpu_dev[0] ? r->dgpu_dev : "dgpu_power");
	read_value(&v, GMUX_DRV_DIR "/%s/dgpu_power/on_ms", r->gmux_dev);
	s->on_ms = parse_long(&v);
	read_value(&v, GMUX_DRV_DIR "/%s/dgpu_power/off_ms", r->gmux_dev);
	s->off_ms = parse_long(&v);
	s->stay_on = r->dgpu_stay_on;
	s->watts = SAVE_DGPU_W;
	s->source = SAVE_DGPU_SOURCE;
}

/* off_share() - the share of time off since load, 0..1; < 0 unknown */
static double off_share(const struct saving *s)
{
	if (s->on_ms < 0 || s->off_ms < 0 || s->on_ms + s->off_ms <= 0)
		return -1;
	return (double)s->off_ms / (double)(s->on_ms + s->off_ms);
}

/* saved_watts() - the estimate: the published idle draw times the share off */
static double saved_watts(const struct saving *s)
{
	double share = off_share(s);

	return share < 0 || s->watts < 0 ? -1 : s->watts * share;
}

static void text_savings(void)
{
	int i;

	printf("\nWhat the bundle saved (time awake since each device was bound)\n");
	if (!savings.n)
		printf("  no device the bundle powers down\n");
	for (i = 0; i < savings.n; i++) {
		const struct saving *s = &savings.s[i];
		double share = off_share(s), w = saved_watts(s);

		printf("  %s ", s->dgpu ? "dGPU" : "Thunderbolt");
		put_text(s->dev);
		if (share >= 0)
			printf(": off %.0f%% of %.0f s awake", share * 100,
			       (double)(s->on_ms + s->off_ms) / 1000);
		else
			printf(": time off not known (%s too old?)",
			       s->dgpu ? "apple_gmux_ng" : "tb_macpm");
		if (s->stay_on.ok && strcmp(s->stay_on.s, "none")) {
			printf("; stays on now: ");
			put_text(s->stay_on.s);
		}
		putchar('\n');
		if (w >= 0)
			printf("    estimate: about %.1f W saved on average (not measured here; source: %s)\n",
			       w, s->source);
		else
			printf("    estimate: none (%s)\n", s->source);
	}
	if (savings.n)
		printf("  (estimates from published figures; measure this Mac: sudo %s --measure)\n",
		       prog);
}

/* jnum() - a number with three decimals, or null if @v < 0 */
static void jnum(const char *key, double v)
{
	jkey(key);
	if (v < 0)
		fputs("null", stdout);
	else
		printf("%.3f", v);
}

static void json_savings(void)
{
	int i;

	jopen("savings", '[');
	for (i = 0; i < savings.n; i++) {
		const struct saving *s = &savings.s[i];

		jopen(NULL, '{');
		jstr("kind", s->dgpu ? "dgpu" : "thunderbolt");
		jstr("device", s->dev);
		jstr("generation", s->dgpu ? NULL : s->gen);
		jint("on_ms", s->on_ms);
		jint("off_ms", s->off_ms);
		jnum("off_share", off_share(s));
		jval("stay_on_reason", &s->stay_on);
		jopen("estimate", '{');
		jbool("is_estimate", true);
		jnum("idle_watts", s->watts);
		jnum("saved_watts", saved_watts(s));
		jstr("source", s->source);
		jclose('}');
		jclose('}');
	}
	jclose(']');
}

/* --- --measure: the battery's discharge, each device held on, then let go -- */

#define PS_DIR			"/sys/class/power_supply"
#define MEAS_WINDOW_S		30.0	/* default window */
#define MEAS_PAIRS		3	/* default pairs */
#define MEAS_MAX_PAIRS		50
#define MEAS_MAX_HOLDS		8	/* power/control files held per device */
#define MEAS_MAX_FILES		(MAX_SAVE * MEAS_MAX_HOLDS)

/* A power/control file written, and what it said before: given back */
struct meas_file {
	char path[PATH_MAX];
	char was[16];
	bool written;
};

struct meas_dev {
	const struct saving *s;
	int nholds;
	int holds[MEAS_MAX_HOLDS];	/* indexes into meas.files */
	int pairs;			/* pairs done */
	double on_w[MEAS_MAX_PAIRS];	/* the mean discharge while held on */
	double off_w[MEAS_MAX_PAIRS];	/* ... and once let go */
	int off_missed;			/* off windows where it did not go off */
	int on_missed;			/* on windows where it did not come on */
	double median, lo, hi;		/* of on - off, W */
	char skipped[LINE_LEN];		/* why it was not measured, or "" */
};

static struct {
	bool asked;
	double window;
	int pairs;
	char battery[NAME_LEN];
	bool power_now;			/* else current_now x voltage_now */
	int ndev;
	struct meas_dev d[MAX_SAVE];
	int nfiles;
	struct meas_file files[MEAS_MAX_FILES];
	bool pairs_given;		/* --pairs: it goes with --measure */
} meas = { .window = MEAS_WINDOW_S, .pairs = MEAS_PAIRS };

/* set by a signal handler: volatile sig_atomic_t, as C requires there */
static volatile sig_atomic_t meas_stop;

static void meas_on_signal(int sig)
{
	meas_stop = sig;
}

/*
 * The signals that end a run: each gives every device back before the tool
 * exits. SIGPIPE is not among them: it is ignored, and a progress line that
 * cannot be written (standard error a pipe whose reader is gone) ends the
 * run the same way.
 */
static const int meas_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/*
 * write_str() - write a sysfs attribute; 0 or -errno. A signal caught
 * meanwhile (SA_RESTART does not cover every file system) retries.
 */
static int write_str(const char *path, const char *s)
{
	size_t n = strlen(s);
	ssize_t w;
	int fd;

	do
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	do
		w = write(fd, s, n);
	while (w < 0 && errno == EINTR);
	if (w < 0) {
		w = -errno;
		close(fd);
		return w;
	}
	if (close(fd))
		return -errno;
	return (size_t)w == n ? 0 : -EIO;
}

/* meas_sleep() - sleep @s seconds, or until a signal asks to stop */
static void meas_sleep(double s)
{
	struct timespec ts;

	if (s <= 0 || meas_stop)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR && !meas_stop)
		;
}

static double dabs(double x)
{
	return x < 0 ? -x : x;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ps_value() - a power_supply attribute of @name */
static void ps_value(struct value *v, const char *name, const char *attr)
{
	read_value(v, PS_DIR "/%s/%s", name, attr);
}

/* the power supplies --measure looks at: each Mains, the battery */
#define MEAS_MAX_SUPPLIES	32

/*
 * meas_mains_online() - a Mains supply online (its name into @name), for
 * a charger plugged in while the battery's status still says otherwise
 */
static bool meas_mains_online(char *name, size_t size)
{
	char names[MEAS_MAX_SUPPLIES][NAME_LEN];
	char path[PATH_MAX];
	struct value v;
	int i, n;

	if (path_of(path, sizeof(path), PS_DIR))
		return false;
	n = list_dir(path, names, MEAS_MAX_SUPPLIES, false);
	if (n > MEAS_MAX_SUPPLIES)
		n = MEAS_MAX_SUPPLIES;
	for (i = 0; i < n; i++) {
		ps_value(&v, names[i], "type");
		if (!v.ok || strcmp(v.s, "Mains"))
			continue;
		ps_value(&v, names[i], "online");
		if (v.ok && !strcmp(v.s, "1")) {
			copy_str(name, size, names[i]);
			return true;
		}
	}
	return false;
}

/*
 * meas_find_battery() - the system battery, and whether it discharges
 * Return: 0, or an errorf() status with what is wrong.
 */
static int meas_find_battery(void)
{
	char names[MEAS_MAX_SUPPLIES][NAME_LEN];
	char path[PATH_MAX], mains[NAME_LEN];
	struct value v, w;
	int i, n;

	meas.battery[0] = 0;
	if (path_of(path, sizeof(path), PS_DIR))
		return errorf(EXIT_ERROR, "--measure: path too long");
	if (meas_mains_online(mains, sizeof(mains)))
		return errorf(EXIT_ERROR,
			      "--measure: on AC power (%s is online): unplug the charger, the battery's discharge is what is measured",
			      mains);
	n = list_dir(path, names, MEAS_MAX_SUPPLIES, false);
	if (n > MEAS_MAX_SUPPLIES)
		n = MEAS_MAX_SUPPLIES;
	for (i = 0; i < n; i++) {
		ps_value(&v, names[i], "type");
		if (!v.ok || !strcmp(v.s, "Mains"))
			continue;
		/* a mouse's or a keyboard's battery is scope "Device" */
		ps_value(&w, names[i], "scope");
		if (strcmp(v.s, "Battery") || (w.ok && !strcmp(w.s, "Device")) || meas.battery[0])
			continue;
		ps_value(&w, names[i], "present");
		if (w.ok && !strcmp(w.s, "0"))
			continue;
		copy_str(meas.battery, sizeof(meas.battery), names[i]);
	}
	if (!meas.battery[0])
		return errorf(EXIT_ERROR,
			      "--measure: no battery in " PS_DIR ": nothing to measure the discharge with");
	ps_value(&v, meas.battery, "status");
	if (v.ok && (!strcmp(v.s, "Charging") || !strcmp(v.s, "Full") ||
		     !strcmp(v.s, "Not charging")))
		return errorf(EXIT_ERROR,
			      "--measure: on AC power (%s is \"%s\"): unplug the charger, the battery's discharge is what is measured",
			      meas.battery, v.s);
	ps_value(&v, meas.battery, "power_now");
	meas.power_now = v.ok;
	if (!v.ok) {
		ps_value(&v, meas.battery, "current_now");
		ps_value(&w, meas.battery, "voltage_now");
		if (!v.ok || !w.ok)
			return errorf(EXIT_ERROR,
				      "--measure: the battery %s shows neither power_now nor current_now and voltage_now",
				      meas.battery);
	}
	return 0;
}

/*
 * meas_rate() - the battery's discharge in W; < 0 if unreadable or not
 * discharging. @on_ac: what says AC power now (the battery's status, or a
 * Mains supply's name), "" if nothing does.
 */
static double meas_rate(char *on_ac, size_t size)
{
	struct value v, w;
	double a, b;
	char *end;

	on_ac[0] = 0;
	ps_value(&v, meas.battery, "status");
	if (v.ok && (!strcmp(v.s, "Charging") || !strcmp(v.s, "Full") ||
		     !strcmp(v.s, "Not charging"))) {
		snprintf(on_ac, size, "%s is \"%s\"", meas.battery, v.s);
		return -1;
	}
	/* a charger plugged in: the battery's status may follow only later */
	if (meas_mains_online(on_ac, size)) {
		snprintf(on_ac + strlen(on_ac), size - strlen(on_ac), " is online");
		return -1;
	}
	ps_value(&v, meas.battery, meas.power_now ? "power_now" : "current_now");
	if (!v.ok)
		return -1;
	a = strtod(v.s, &end);
	if (end == v.s || *end)
		return -1;
	if (meas.power_now)
		return dabs(a) / 1e6;	/* uW */
	ps_value(&w, meas.battery, "voltage_now");
	if (!w.ok)
		return -1;
	b = strtod(w.s, &end);
	if (end == w.s || *end)
		return -1;
	return dabs(a) / 1e6 * dabs(b) / 1e6;	/* uA x uV */
}

/* meas_add_file() - a power/control file the hold writes; its index, or -1 */
static int meas_add_file(struct meas_dev *d, const char *path)
{
	struct meas_file *f;
	struct value v;
	int i;

	if (d->nholds >= MEAS_MAX_HOLDS || meas.nfiles >= MEAS_MAX_FILES)
		return -1;
	for (i = 0; i < meas.nfiles; i++)
		if (!strcmp(meas.files[i].path, path))
			break;
	if (i == meas.nfiles) {
		f = &meas.files[i];
		v.ok = !read_line(path, v.s, sizeof(v.s));
		if (!v.ok || (strcmp(v.s, "on") && strcmp(v.s, "auto")))
			return -1;
		copy_str(f->path, sizeof(f->path), path);
		copy_str(f->was, sizeof(f->was), v.s);
		meas.nfiles++;
	}
	d->holds[d->nholds++] = i;
	return i;
}

static bool is_pci_name(const char *s)
{
	return strlen(s) == 12 && s[4] == ':' && s[7] == ':' && s[10] == '.';
}

/*
 * list_pci() - the PCI devices (their directories) below a device's
 * directory, sorted; a device's directory holds dozens of attribute files
 * besides, which list_dir() would count in its @max. Return: how many
 * (at most @max), or -errno.
 */
static int list_pci(const char *path, char (*names)[NAME_LEN], int max)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < max)
		if (is_pci_name(de->d_name))
			snprintf(names[n++], NAME_LEN, "%s", de->d_name);
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	return n;
}

/*
 * meas_tb_holds() - a Thunderbolt controller is held powered through the
 * runtime PM of its chip's functions: the NHI and each other function
 * below the chip's downstream ports (its xHCI), power/control "on". Any of
 * them active keeps the chain above it resumed, the power switch with it
 * and, on Thunderbolt 3, its vote at 1 (see tb_macpm.rst).
 */
static void meas_tb_holds(struct meas_dev *d)
{
	char nhi[PATH_MAX], real[PATH_MAX], p[PATH_MAX], f[PATH_MAX];
	char dsbs[16][NAME_LEN], fns[8][NAME_LEN];
	struct value cls;
	char *slash;
	int i, j, n, m;

	if (path_of(nhi, sizeof(nhi), PCI_DEV_DIR "/%s/power/control", d->s->dev) ||
	    meas_add_file(d, nhi) < 0) {
		snprintf(d->skipped, sizeof(d->skipped),
			 "its NHI's power/control cannot be read");
		return;
	}
	if (path_of(nhi, sizeof(nhi), PCI_DEV_DIR "/%s", d->s->dev) || !realpath(nhi, real))
		return;
	/* .../<upsb>/<dsb0>/<nhi> */
	for (i = 0; i < 2; i++) {
		slash = strrchr(real, '/');
		if (!slash)
			return;
		*slash = 0;
	}
	n = list_pci(real, dsbs, 16);
	for (i = 0; i < n; i++) {
		if (snprintf(p, sizeof(p), "%s/%s", real, dsbs[i]) >= (int)sizeof(p))
			continue;
		m = list_pci(p, fns, 8);
		for (j = 0; j < m; j++) {
			if (!strcmp(fns[j], d->s->dev))
				continue;
			/* a bridge is a hotplug port's device, not the chip's function */
			if (snprintf(f, sizeof(f), "%s/%s/class", p, fns[j]) >= (int)sizeof(f))
				continue;
			cls.ok = !read_line(f, cls.s, sizeof(cls.s));
			if (!cls.ok || !strncmp(cls.s, "0x0604", 6))
				continue;
			if (snprintf(f, sizeof(f), "%s/%s/power/control", p, fns[j]) <
			    (int)sizeof(f))
				meas_add_file(d, f);
		}
	}
}

static void meas_holds(const struct report *r, struct meas_dev *d)
{
	char path[PATH_MAX];

	if (!d->s->dgpu) {
		meas_tb_holds(d);
		return;
	}
	/* a dGPU switched OFF by hand: its driver believes it off, never powered here */
	if (r->dgpu_off_by.ok && !strcmp(r->dgpu_off_by.s, "vga_switcheroo")) {
		snprintf(d->skipped, sizeof(d->skipped),
			 "switched OFF through vga_switcheroo: left alone");
		return;
	}
	/* the gmux's power switch: its runtime PM forbidden powers the dGPU */
	if (path_of(path, sizeof(path), GMUX_DRV_DIR "/%s/dgpu_power/power/control",
		    r->gmux_dev) || meas_add_file(d, path) < 0)
		snprintf(d->skipped, sizeof(d->skipped),
			 "apple_gmux_ng's dgpu_power/power/control cannot be read");
}

/*
 * meas_set() - hold the device on (power/control "on"), or let it go: give
 * each file back what it said, so that what is measured is what the bundle
 * saves as this machine is set up (a function found "on" keeps it on)
 */
static int meas_set(struct meas_dev *d, bool hold)
{
	int i, err, ret = 0;

	for (i = 0; i < d->nholds; i++) {
		struct meas_file *f = &meas.files[d->holds[i]];

		f->written = true;
		err = write_str(f->path, hold ? "on" : f->was);
		if (err && !ret)
			ret = err;
	}
	return ret;
}

/*
 * meas_restore() - every file written given back what it said; 0 if all
 * were. The signals that end a run are blocked meanwhile (a second Ctrl-C
 * must not cut it short); one that comes is taken once all is given back.
 */
static int meas_restore(void)
{
	sigset_t block, old;
	int i, ret = 0;

	sigemptyset(&block);
	for (i = 0; i < (int)ARRAY_SIZE(meas_signals); i++)
		sigaddset(&block, meas_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < meas.nfiles; i++) {
		struct meas_file *f = &meas.files[i];
		char now[16];

		if (!f->written)
			continue;
		if (write_str(f->path, f->was) || read_line(f->path, now, sizeof(now)) ||
		    strcmp(now, f->was)) {
			fprintf(stderr, "%s: could not give %s back its \"%s\"\n", prog, f->path,
				f->was);
			ret = -EIO;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/* meas_is_on() - the device's power as its module reports it: 1, 0, -1 */
static int meas_is_on(const struct report *r, const struct meas_dev *d)
{
	struct value v;

	if (d->s->dgpu)
		read_value(&v, GMUX_DRV_DIR "/%s/dgpu_power/state", r->gmux_dev);
	else
		read_value(&v, TB_CLASS_DIR "/%s/power_state", d->s->dev);
	if (!v.ok)
		return -1;
	return !strcmp(v.s, "on") ? 1 : !strcmp(v.s, "off") ? 0 : -1;
}

/*
 * meas_window() - hold or let go, wait until the module reports the device
 * so (at most one window), settle a quarter window, then the mean discharge
 * over one window. Return: W, or < 0 (stopped, AC, unreadable; said).
 */
static double meas_window(const struct report *r, struct meas_dev *d, bool hold, int pair,
			  bool *reached)
{
	double t0, sum = 0, step, rate, waited;
	char on_ac[LINE_LEN];
	int err, n = 0;

	err = meas_set(d, hold);
	if (err) {
		errorf(EXIT_ERROR, "--measure: %s %s: %s", hold ? "cannot hold" : "cannot let go",
		       d->s->dev, strerror(-err));
		return -1;
	}
	t0 = now_s();
	while (!meas_stop && meas_is_on(r, d) != hold && now_s() - t0 < meas.window)
		meas_sleep(0.05);
	*reached = meas_is_on(r, d) == hold;
	waited = now_s() - t0;
	meas_sleep(meas.window / 4);
	step = meas.window / 10;
	if (step > 2)
		step = 2;
	t0 = now_s();
	while (!meas_stop) {
		rate = meas_rate(on_ac, sizeof(on_ac));
		if (on_ac[0]) {
			errorf(EXIT_ERROR, "--measure: on AC power now (%s): stopped", on_ac);
			return -1;
		}
		if (rate >= 0) {
			sum += rate;
			n++;
		}
		if (now_s() - t0 + step > meas.window)
			break;
		meas_sleep(step);
	}
	if (meas_stop)
		return -1;
	if (!n) {
		errorf(EXIT_ERROR, "--measure: cannot read the discharge of %s", meas.battery);
		return -1;
	}
	fprintf(stderr, "%s: %s %s, pair %d/%d, %s: %.2f W (%d readings%s, %s after %.1f s)\n",
		prog, d->s->dgpu ? "dGPU" : "Thunderbolt", d->s->dev, pair + 1, meas.pairs,
		hold ? "held on " : "let go  ", sum / n, n,
		meas.power_now ? "" : ", current x voltage",
		*reached ? (hold ? "on" : "off") : (hold ? "NOT on" : "NOT off"), waited);
	/* nobody reads the progress any more (2>&1 | head -3): stop as on Ctrl-C */
	if (fflush(stderr) || ferror(stderr)) {
		meas_stop = SIGPIPE;
		return -1;
	}
	return sum / n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* meas_device() - the pairs of one device; 0, or an exit status */
static int meas_device(const struct report *r, struct meas_dev *d)
{
	double diff[MEAS_MAX_PAIRS];
	bool reached;
	int p, k;

	for (p = 0; p < meas.pairs; p++) {
		/* ABBA: drift in the battery's reading cancels out */
		for (k = 0; k < 2; k++) {
			bool hold = (p % 2 == 0) == (k == 0);
			double w = meas_window(r, d, hold, p, &reached);

			if (w < 0)
				return EXIT_ERROR;
			if (hold) {
				d->on_w[p] = w;
				d->on_missed += !reached;
			} else {
				d->off_w[p] = w;
				d->off_missed += !reached;
			}
		}
		d->pairs++;
	}
	for (p = 0; p < d->pairs; p++)
		diff[p] = d->on_w[p] - d->off_w[p];
	qsort(diff, d->pairs, sizeof(diff[0]), cmp_double);
	d->lo = diff[0];
	d->hi = diff[d->pairs - 1];
	d->median = d->pairs % 2 ? diff[d->pairs / 2] :
		    (diff[d->pairs / 2 - 1] + diff[d->pairs / 2]) / 2;
	return 0;
}

/*
 * meas_run() - the A/B run over every device; every power/control written is
 * given back as found, also after a signal.
 * Return: 0, or an exit status (what is wrong said on stderr).
 */
static int meas_run(const struct report *r)
{
	struct sigaction sa = { .sa_handler = meas_on_signal, .sa_flags = SA_RESTART };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	int i, ret = 0;

	if (geteuid())
		return errorf(EXIT_ERROR,
			      "--measure needs root: it holds each device powered through its power/control in sysfs (sudo %s --measure)",
			      prog);
	ret = meas_find_battery();
	if (ret)
		return ret;
	if (!savings.n)
		return errorf(EXIT_ERROR,
			      "--measure: no device the bundle powers down (are tb_macpm and apple_gmux_ng loaded?)");
	for (i = 0; i < savings.n; i++) {
		struct meas_dev *d = &meas.d[meas.ndev++];

		d->s = &savings.s[i];
		meas_holds(r, d);
	}
	/* while one handler runs, the others wait */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < (int)ARRAY_SIZE(meas_signals); i++)
		sigaddset(&sa.sa_mask, meas_signals[i]);
	for (i = 0; i < (int)ARRAY_SIZE(meas_signals); i++)
		sigaction(meas_signals[i], &sa, NULL);
	/* a write to a pipe nobody reads fails with EPIPE instead of killing */
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, NULL);
	fprintf(stderr, "%s: measuring on %s (%s): %d device%s, %d pairs of %g s windows each; Ctrl-C gives every device back\n",
		prog, meas.battery, meas.power_now ? "power_now" : "current_now x voltage_now",
		meas.ndev, meas.ndev == 1 ? "" : "s", meas.pairs, meas.window);
	for (i = 0; i < meas.ndev && !ret; i++) {
		struct meas_dev *d = &meas.d[i];

		if (d->skipped[0])
			continue;
		ret = meas_device(r, d);
		/* each device as found before the next one is measured */
		if (meas_restore() && !ret)
			ret = EXIT_ERROR;
	}
	if (meas_restore() && !ret)
		ret = EXIT_ERROR;
	if (meas_stop) {
		fprintf(stderr, "%s: interrupted: every device was given back as found\n", prog);
		return EXIT_ERROR;
	}
	return ret;
}

static void text_measure(void)
{
	int i;

	if (!meas.asked)
		return;
	printf("\nMeasured on the battery (%s, %s; %d pair%s of %g s windows)\n",
	       meas.battery, meas.power_now ? "power_now" : "current_now x voltage_now",
	       meas.pairs, meas.pairs == 1 ? "" : "s", meas.window);
	for (i = 0; i < meas.ndev; i++) {
		const struct meas_dev *d = &meas.d[i];

		printf("  %s ", d->s->dgpu ? "dGPU" : "Thunderbolt");
		put_text(d->s->dev);
		if (d->skipped[0]) {
			printf(": not measured: ");
			put_text(d->skipped);
			putchar('\n');
			continue;
		}
		printf(": saves %.2f W (median of %d; spread %.2f .. %.2f W)", d->median, d->pairs,
		       d->lo, d->hi);
		if (d->off_missed)
			printf("; did not power off in %d of %d windows%s", d->off_missed, d->pairs,
			       d->s->stay_on.ok && strcmp(d->s->stay_on.s, "none") ?
			       ": it stays on" : "");
		if (d->on_missed)
			printf("; did not power on in %d of %d windows", d->on_missed, d->pairs);
		putchar('\n');
	}
}

static void json_measure(void)
{
	int i, p;

	if (!meas.asked) {
		jnull("measurement");
		return;
	}
	jopen("measurement", '{');
	jstr("battery", meas.battery);
	jstr("rate_source", meas.power_now ? "power_now" : "current_now*voltage_now");
	jnum("window_seconds", meas.window);
	jint("pairs", meas.pairs);
	jopen("devices", '[');
	for (i = 0; i < meas.ndev; i++) {
		const struct meas_dev *d = &meas.d[i];

		jopen(NULL, '{');
		jstr("kind", d->s->dgpu ? "dgpu" : "thunderbolt");
		jstr("device", d->s->dev);
		jstr("skipped", d->skipped[0] ? d->skipped : NULL);
		jint("pairs_done", d->pairs);
		/* a difference may be negative: printed as is */
		jkey("saved_watts_median");
		d->pairs ? printf("%.3f", d->median) : fputs("null", stdout);
		jkey("saved_watts_min");
		d->pairs ? printf("%.3f", d->lo) : fputs("null", stdout);
		jkey("saved_watts_max");
		d->pairs ? printf("%.3f", d->hi) : fputs("null", stdout);
		jopen("on_watts", '[');
		for (p = 0; p < d->pairs; p++)
			jnum(NULL, d->on_w[p]);
		jclose(']');
		jopen("off_watts", '[');
		for (p = 0; p < d->pairs; p++)
			jnum(NULL, d->off_w[p]);
		jclose(']');
		jint("off_windows_missed", d->off_missed);
		jint("on_windows_missed", d->on_missed);
		jclose('}');
	}
	jclose(']');
	jclose('}');
}

static bool is_measure_arg(const char *arg)
{
	return !strcmp(arg, "--measure") || !strcmp(arg, "--pairs");
}

/* parse_measure_arg() - "--measure [SECONDS]" or "--pairs N"; 0, or -1 if bad */
static int parse_measure_arg(int argc, char **argv, int *i)
{
	char *end;
	long n;

	if (!strcmp(argv[*i], "--measure")) {
		meas.asked = true;
		if (*i + 1 < argc && argv[*i + 1][0] >= '0' && argv[*i + 1][0] <= '9') {
			meas.window = strtod(argv[++*i], &end);
			if (*end || meas.window < 0.1 || meas.window > 3600)
				return -1;
		}
		return 0;
	}
	if (*i + 1 >= argc)
		return -1;
	n = strtol(argv[++*i], &end, 10);
	if (*end || n < 1 || n > MEAS_MAX_PAIRS)
		return -1;
	meas.pairs = n;
	meas.pairs_given = true;
	return 0;
}

/* set_root() - "--root /" and "--root dir/" name the tree without the slash */
static int set_root(const char *dir)
{
	static char buf[PATH_MAX / 2];
	size_t n = strlen(dir);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, dir, n + 1);
	while (n && buf[n - 1] == '/')
		buf[--n] = 0;
	root = buf;
	return 0;
}

int main(int argc, char **argv)
{
	struct report *r;
	bool json = false;
	int i, m, status;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			print_help(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--version")) {
			printf("%s %s (JSON schema_version %d)\n", prog, MACSUPPORT_VERSION,
			       SCHEMA_VERSION);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--root") && i + 1 < argc) {
			root = argv[++i];
		} else if (!strcmp(argv[i], "--firmware")) {
			fwr.want = true;
			if (i + 1 < argc && argv[i + 1][0] != '-')
				fwr.dir = argv[++i];
		} else if (!strcmp(argv[i], "--model") && i + 1 < argc) {
			fwr.model_opt = argv[++i];
		} else if (is_measure_arg(argv[i])) {
			if (parse_measure_arg(argc, argv, &i)) {
				print_help(stderr);
				return errorf(EXIT_ERROR, "bad value for '%s'", argv[i]);
			}
		} else {
			print_help(stderr);
			return errorf(EXIT_ERROR, "unexpected argument '%s'", argv[i]);
		}
	}
	if (set_root(root))
		return errorf(EXIT_ERROR, "--root: path too long");
	if (fwr.model_opt && !fwr.want)
		return errorf(EXIT_ERROR, "--model goes with --firmware");
	if (meas.pairs_given && !meas.asked)
		return errorf(EXIT_ERROR, "--pairs goes with --measure");
	/* a folder's tables are no machine to measure: not silently ignored */
	if (fwr.dir && meas.asked)
		return errorf(EXIT_ERROR,
			      "--measure measures this machine; --firmware DIR reads a folder's tables alone: one or the other");
	if (fwr.dir)
		return fw_only(json);

	r = calloc(1, sizeof(*r));
	if (!r)
		return errorf(EXIT_ERROR, "out of memory");
	for (i = 0; i < 4; i++)
		r->mods[i].name = bundle_modules[i];

	probe_machine(r);
	for (i = 0; i < 4; i++)
		probe_module(&r->mods[i]);
	if (probe_quirks(r))
		return errorf(EXIT_ERROR, "out of memory");
	probe_gmux(r);
	probe_tb(r);
	probe_props(r);
	probe_attached(r);
	conclude(r);
	if (fwr.want)
		fw_run(r);
	probe_savings(r);
	if (meas.asked) {
		m = meas_run(r);
		if (m)
			return m;
	}

	if (json)
		print_json(r);
	else
		print_text(r);
	status = r->status;
	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		return errorf(EXIT_ERROR, "cannot write the report: %s",
			      errno ? strerror(errno) : "write error");
	for (i = 0; i < r->nactions; i++)
		free(r->actions[i]);
	free(r->quirks);
	free(r);
	if (fwr.want)
		fw_free();
	return status;
}
