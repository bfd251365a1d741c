// SPDX-License-Identifier: GPL-2.0
/*
 * gpu-select: show and set the GPU that a dual-GPU MacBook Pro's firmware
 * puts the panel on at the next boot (the EFI variable
 * gpu-power-prefs-fa4ce28d-b62f-4c99-9cc3-6815686e30f9: four bytes, 1 =
 * integrated, 0 = discrete, attributes 0x7).
 *
 * Through apple_gmux_ng's boot_gpu attribute when the module has bound the
 * gmux, through efivarfs otherwise. The model table is src/lib/mac_model.c,
 * the same file the modules are built from. See gpu-select.1.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "macsupport/mac_model.h"

#define PREFS_VAR	"gpu-power-prefs-fa4ce28d-b62f-4c99-9cc3-6815686e30f9"
#define PREFS_ATTRS	0x7	/* non-volatile, boot-service and runtime access */

#define EFIVARFS_DIR	"/sys/firmware/efi/efivars"
#define GMUX_DRV_DIR	"/sys/bus/pnp/drivers/apple_gmux_ng"
#define SWITCHEROO	"/sys/kernel/debug/vgaswitcheroo/switch"
#define LOCKDOWN	"/sys/kernel/security/lockdown"
#define DMI_DIR		"/sys/class/dmi/id"

/* Exit statuses */
enum {
	EXIT_OK = 0,
	EXIT_ERROR = 1,		/* I/O or firmware error */
	EXIT_USAGE = 2,
	EXIT_REFUSED = 3,	/* no gmux, no privilege, locked down */
};

static const char *prog = "gpu-select";
static const char *root = "";	/* --root, for tests */

enum boot_gpu { GPU_DISCRETE, GPU_INTEGRATED, GPU_UNSET, GPU_UNKNOWN, GPU_NONE };

static const char *const gpu_names[] = {
	[GPU_DISCRETE] = "discrete",
	[GPU_INTEGRATED] = "integrated",
	[GPU_UNSET] = "unset",
	[GPU_UNKNOWN] = "unknown",
	[GPU_NONE] = NULL,
};

/* What the tool found out about the machine */
struct state {
	char vendor[128];
	char product[128];
	bool apple;
	const struct mac_model_info *model;
	char gmux_dev[800];		/* the bound gmux's sysfs directory, or "" */
	char attr[820];			/* its boot_gpu attribute, or "" */
	bool efivarfs;			/* efivarfs is mounted (has variables) */
	enum boot_gpu next;		/* GPU_NONE: could not be read */
	const char *source;		/* "apple_gmux_ng", "efivarfs" or NULL */
	char read_error[1024];
	enum boot_gpu panel;		/* GPU_NONE: vga_switcheroo does not say */
	char panel_raw[16];		/* "IGD", "DIS" */
	char lockdown[32];		/* "none", "integrity", ... or "" */
	char dgpu_state[16];		/* dgpu_power/state: on, off, unknown, or "" */
	char dgpu_off_by[32];		/* dgpu_power/off_by, or "" */
	char dgpu_stay_on[128];		/* dgpu_power/stay_on_reason, or "" */
	const char *no_gmux;		/* why this machine has no gmux, or NULL */
};

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: %s [status] [--json]\n"
		"       %s integrated|discrete|unset [--efivarfs]\n"
		"       %s --help\n"
		"\n"
		"The GPU a dual-GPU MacBook Pro's firmware puts the panel on at the next\n"
		"boot: the EFI variable " PREFS_VAR "\n"
		"(1 = integrated, 0 = discrete). A change takes effect at the next boot.\n"
		"\n"
		"  status       (default) the machine, its gmux, the next boot's GPU, the\n"
		"               GPU on the panel now (vga_switcheroo, when debugfs shows it)\n"
		"               and the kernel's lockdown state; --json as one JSON object\n"
		"  integrated   boot on the integrated GPU\n"
		"  discrete     boot on the discrete GPU\n"
		"  unset        delete the variable: the firmware chooses\n"
		"\n"
		"Writes go through apple_gmux_ng's boot_gpu attribute when the module has\n"
		"bound the gmux, else through efivarfs (clearing the file's immutable flag\n"
		"first). They need CAP_SYS_ADMIN and are refused when the kernel is locked\n"
		"down and on machines without a gmux.\n"
		"\n"
		"  --json       status as JSON\n"
		"  --efivarfs   read and write through efivarfs even when the module is bound\n"
		"  --root DIR   look for /sys under DIR (testing)\n"
		"\n"
		"Exit status: 0 done, 1 error, 2 usage, 3 refused (no gmux, no privilege,\n"
		"locked down).\n",
		prog, prog, prog);
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

static void path_of(char *buf, size_t len, const char *path)
{
	snprintf(buf, len, "%s%s", root, path);
}

/* The first line of a small text file, without its newline; -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, len, f))
		ret = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (ret) {
		buf[0] = 0;
		return ret;
	}
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/**
 * parse_gpu_word() - what a word names
 * @s: "integrated", "discrete", "unset" or "unknown" (as the attribute shows)
 *
 * Return: the GPU, or GPU_NONE for anything else.
 */
static enum boot_gpu parse_gpu_word(const char *s)
{
	int i;

	for (i = 0; i <= GPU_UNKNOWN; i++)
		if (!strcmp(s, gpu_names[i]))
			return i;
	return GPU_NONE;
}

/**
 * parse_efivarfs() - decode an efivarfs file of the variable
 * @buf: its contents: 4 bytes of attributes, then the data
 * @len: their length
 *
 * Return: GPU_INTEGRATED for data 01 00 00 00, GPU_DISCRETE for 00 00 00 00,
 * GPU_UNKNOWN for any other data, GPU_NONE when @len is below 4.
 */
static enum boot_gpu parse_efivarfs(const unsigned char *buf, size_t len)
{
	unsigned int v;

	if (len < 4)
		return GPU_NONE;
	if (len != 8)
		return GPU_UNKNOWN;
	v = buf[4] | buf[5] << 8 | buf[6] << 16 | (unsigned int)buf[7] << 24;
	return v == 1 ? GPU_INTEGRATED : v == 0 ? GPU_DISCRETE : GPU_UNKNOWN;
}

/**
 * parse_switcheroo() - the GPU on the panel, from vga_switcheroo's debugfs
 * @text: the file, lines "ID:IGD|DIS[-Audio]:+| :[Dyn]Pwr|Off:PCI-NAME"
 * @raw: receives "IGD" or "DIS" (16 bytes)
 *
 * Return: the active display client's GPU, or GPU_NONE when no line has a
 * '+' (or the text is not in that format).
 */
static enum boot_gpu parse_switcheroo(const char *text, char *raw)
{
	const char *line = text;
	char id[16], kind[16], active;
	int n;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (sscanf(line, "%15[0-9]:%15[A-Za-z-]:%c:%n", id, kind, &active, &n) != 3)
			continue;
		if (active != '+' || strstr(kind, "-Audio"))
			continue;
		if (strcmp(kind, "IGD") && strcmp(kind, "DIS"))
			continue;
		snprintf(raw, 16, "%s", kind);
		return strcmp(kind, "IGD") ? GPU_DISCRETE : GPU_INTEGRATED;
	}
	return GPU_NONE;
}

/* The lockdown mode in brackets: "none [integrity] confidentiality" -> "integrity" */
static void parse_lockdown(const char *text, char *mode, size_t len)
{
	const char *a = strchr(text, '['), *b = a ? strchr(a, ']') : NULL;

	if (!a || !b || (size_t)(b - a - 1) >= len) {
		mode[0] = 0;
		return;
	}
	memcpy(mode, a + 1, b - a - 1);
	mode[b - a - 1] = 0;
}

static size_t read_file(const char *path, unsigned char *buf, size_t len, int *err)
{
	int fd = open(path, O_RDONLY);
	ssize_t r;
	size_t n = 0;

	*err = 0;
	if (fd < 0) {
		*err = errno;
		return 0;
	}
	while (n < len && (r = read(fd, buf + n, len - n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			*err = errno;
			break;
		}
		n += r;
	}
	close(fd);
	return n;
}

/* The bound gmux: the first device link in the driver's sysfs directory. */
static void find_gmux(struct state *s)
{
	char dir[512];
	struct dirent *e;
	DIR *d;

	path_of(dir, sizeof(dir), GMUX_DRV_DIR);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		/* PNP device names look like "00:05" */
		if (!strchr(e->d_name, ':'))
			continue;
		snprintf(s->gmux_dev, sizeof(s->gmux_dev), "%s/%s", dir, e->d_name);
		snprintf(s->attr, sizeof(s->attr), "%s/boot_gpu", s->gmux_dev);
		if (access(s->attr, F_OK))
			s->attr[0] = 0;
		break;
	}
	closedir(d);
}

/* One attribute of the bound gmux's dgpu_power device; "" if unreadable */
static void read_dgpu_power(const struct state *s, const char *name, char *buf, size_t len)
{
	char path[sizeof(s->gmux_dev) + 32];

	snprintf(path, sizeof(path), "%s/dgpu_power/%s", s->gmux_dev, name);
	if (read_line(path, buf, len))
		buf[0] = 0;
}

/* Does the firmware declare a gmux (an ACPI device APP000B) at all? */
static bool acpi_declares_gmux(void)
{
	char dir[512];
	struct dirent *e;
	bool any = false;
	DIR *d;

	path_of(dir, sizeof(dir), "/sys/bus/acpi/devices");
	d = opendir(dir);
	if (!d)
		return false;
	while (!any && (e = readdir(d)))
		any = !strncmp(e->d_name, "APP000B:", 8);
	closedir(d);
	return any;
}

static bool efivarfs_mounted(void)
{
	char dir[512];
	struct dirent *e;
	bool any = false;
	DIR *d;

	path_of(dir, sizeof(dir), EFIVARFS_DIR);
	d = opendir(dir);
	if (!d)
		return false;
	while (!any && (e = readdir(d)))
		any = e->d_name[0] != '.';
	closedir(d);
	return any;
}

/* The variable through efivarfs; GPU_NONE with the reason in s->read_error. */
static enum boot_gpu read_efivarfs(struct state *s)
{
	unsigned char buf[64];
	char path[600];
	size_t n;
	int err;

	if (!s->efivarfs) {
		snprintf(s->read_error, sizeof(s->read_error),
			 "efivarfs is not mounted at " EFIVARFS_DIR);
		return GPU_NONE;
	}
	path_of(path, sizeof(path), EFIVARFS_DIR "/" PREFS_VAR);
	n = read_file(path, buf, sizeof(buf), &err);
	if (err == ENOENT)
		return GPU_UNSET;
	if (err) {
		snprintf(s->read_error, sizeof(s->read_error), "%s: %s", path, strerror(err));
		return GPU_NONE;
	}
	/* a file efivarfs lists for a variable that is gone reads empty */
	if (n == 0)
		return GPU_UNSET;
	if (parse_efivarfs(buf, n) == GPU_NONE) {
		snprintf(s->read_error, sizeof(s->read_error), "%s: %zu bytes", path, n);
		return GPU_NONE;
	}
	return parse_efivarfs(buf, n);
}

static enum boot_gpu read_attr(struct state *s)
{
	char line[64];
	enum boot_gpu g;
	int ret;

	ret = read_line(s->attr, line, sizeof(line));
	if (ret) {
		snprintf(s->read_error, sizeof(s->read_error), "%s: %s", s->attr, strerror(-ret));
		return GPU_NONE;
	}
	g = parse_gpu_word(line);
	if (g == GPU_NONE)
		snprintf(s->read_error, sizeof(s->read_error), "%s: unexpected '%s'", s->attr,
			 line);
	return g;
}

static void read_next(struct state *s, bool force_efivarfs)
{
	s->read_error[0] = 0;
	if (s->attr[0] && !force_efivarfs) {
		s->source = "apple_gmux_ng";
		s->next = read_attr(s);
	} else {
		s->source = "efivarfs";
		s->next = read_efivarfs(s);
	}
}

static void probe(struct state *s, bool force_efivarfs)
{
	char path[512], text[4096];
	struct mac_model_id id;
	size_t n;
	int err;

	memset(s, 0, sizeof(*s));
	path_of(path, sizeof(path), DMI_DIR "/sys_vendor");
	read_line(path, s->vendor, sizeof(s->vendor));
	path_of(path, sizeof(path), DMI_DIR "/product_name");
	read_line(path, s->product, sizeof(s->product));
	s->apple = !strcmp(s->vendor, "Apple Inc.") || !strcmp(s->vendor, "Apple Computer, Inc.");
	if (s->apple && !mac_model_parse(s->product, &id))
		s->model = mac_model_lookup(&id);

	find_gmux(s);
	s->efivarfs = efivarfs_mounted();
	if (!s->gmux_dev[0]) {
		if (!s->apple)
			s->no_gmux = "this is not a Mac: the boot-GPU preference exists only on dual-GPU MacBook Pros";
		else if (s->model && s->model->gmux == MAC_GMUX_FAKE)
			s->no_gmux = "this Mac has one GPU; its firmware declares a gmux that is not there";
		else if (s->model && s->model->gmux == MAC_GMUX_NONE)
			s->no_gmux = "this Mac has one GPU and no gmux";
		else if (!s->model && !acpi_declares_gmux())
			s->no_gmux = "this Mac is not in the model table and its firmware declares no gmux";
	}
	read_next(s, force_efivarfs);

	s->panel = GPU_NONE;
	path_of(path, sizeof(path), SWITCHEROO);
	n = read_file(path, (unsigned char *)text, sizeof(text) - 1, &err);
	if (!err) {
		text[n] = 0;
		s->panel = parse_switcheroo(text, s->panel_raw);
	}

	path_of(path, sizeof(path), LOCKDOWN);
	if (!read_line(path, text, sizeof(text)))
		parse_lockdown(text, s->lockdown, sizeof(s->lockdown));

	/* the dGPU's power, from apple_gmux_ng's switch (absent: older module) */
	if (s->gmux_dev[0]) {
		read_dgpu_power(s, "state", s->dgpu_state, sizeof(s->dgpu_state));
		read_dgpu_power(s, "off_by", s->dgpu_off_by, sizeof(s->dgpu_off_by));
		read_dgpu_power(s, "stay_on_reason", s->dgpu_stay_on, sizeof(s->dgpu_stay_on));
	}
}

/* "dGPU power:" in words, or NULL when apple_gmux_ng does not say */
static const char *dgpu_power_text(const struct state *s, char *buf, size_t len)
{
	if (!s->dgpu_state[0])
		return NULL;
	if (!strcmp(s->dgpu_state, "off"))
		snprintf(buf, len, "off (%s)", !strcmp(s->dgpu_off_by, "vga_switcheroo") ?
			 "switched OFF through vga_switcheroo" :
			 !strcmp(s->dgpu_off_by, "runtime_pm") ? "runtime PM" : s->dgpu_off_by);
	else if (s->dgpu_stay_on[0] && strcmp(s->dgpu_stay_on, "none"))
		snprintf(buf, len, "%s: %s", !strcmp(s->dgpu_state, "on") ? "on" : "not known",
			 s->dgpu_stay_on);
	else
		snprintf(buf, len, "%s", s->dgpu_state);
	return buf;
}

static void json_str(const char *key, const char *v, bool last)
{
	const char *p;

	printf("  \"%s\": ", key);
	if (!v) {
		printf("null");
	} else {
		putchar('"');
		for (p = v; *p; p++) {
			if (*p == '"' || *p == '\\')
				printf("\\%c", *p);
			else if ((unsigned char)*p < 0x20)
				printf("\\u%04x", *p);
			else
				putchar(*p);
		}
		putchar('"');
	}
	printf("%s\n", last ? "" : ",");
}

static const char *gmux_text(const struct state *s)
{
	if (s->gmux_dev[0])
		return "bound";
	return s->no_gmux ? "none" : "not bound";
}

static void print_status(const struct state *s, bool json)
{
	const char *kind = s->model ? mac_gmux_kind_name(s->model->gmux) : NULL;
	char power[192];

	if (json) {
		printf("{\n");
		json_str("vendor", s->vendor[0] ? s->vendor : NULL, false);
		json_str("product", s->product[0] ? s->product : NULL, false);
		json_str("gmux_kind", kind, false);
		json_str("gmux", gmux_text(s), false);
		json_str("no_gmux_reason", s->no_gmux, false);
		json_str("next_boot_gpu", gpu_names[s->next], false);
		json_str("source", s->source, false);
		json_str("read_error", s->read_error[0] ? s->read_error : NULL, false);
		json_str("panel", gpu_names[s->panel], false);
		json_str("dgpu_power", s->dgpu_state[0] ? s->dgpu_state : NULL, false);
		json_str("dgpu_off_by", s->dgpu_off_by[0] ? s->dgpu_off_by : NULL, false);
		json_str("dgpu_stay_on_reason", s->dgpu_stay_on[0] ? s->dgpu_stay_on : NULL, false);
		json_str("lockdown", s->lockdown[0] ? s->lockdown : NULL, true);
		printf("}\n");
		return;
	}
	printf("machine:       %s (%s)\n", s->product[0] ? s->product : "?",
	       s->vendor[0] ? s->vendor : "?");
	if (s->gmux_dev[0])
		printf("gmux:          %s, bound by apple_gmux_ng (%s)\n",
		       kind ? kind : "kind not in the model table", s->gmux_dev + strlen(root));
	else if (s->no_gmux)
		printf("gmux:          none: %s\n", s->no_gmux);
	else
		printf("gmux:          not bound: apple_gmux_ng is not loaded or did not bind\n");
	if (s->next == GPU_NONE)
		printf("next boot GPU: cannot tell (%s)\n", s->read_error);
	else if (s->next == GPU_UNSET)
		printf("next boot GPU: unset, the firmware chooses (no %s; through %s)\n",
		       PREFS_VAR, s->source);
	else
		printf("next boot GPU: %s (through %s)\n", gpu_names[s->next], s->source);
	if (s->panel != GPU_NONE)
		printf("panel now:     %s (vga_switcheroo %s)\n", gpu_names[s->panel], s->panel_raw);
	else
		printf("panel now:     not known (no vga_switcheroo client is active in debugfs)\n");
	if (dgpu_power_text(s, power, sizeof(power)))
		printf("dGPU power:    %s\n", power);
	printf("lockdown:      %s\n", s->lockdown[0] ? s->lockdown : "not known (securityfs)");
}

static bool have_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_SYS_ADMIN / 32].effective & (1U << (CAP_SYS_ADMIN % 32));
}

/* FS_IOC_SETFLAGS without the immutable flag; *was tells if it was set. */
static int clear_immutable(int fd, bool *was)
{
	int flags;

	*was = false;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags))
		return errno == ENOTTY || errno == EOPNOTSUPP ? 0 : -errno;
	if (!(flags & FS_IMMUTABLE_FL))
		return 0;
	*was = true;
	flags &= ~FS_IMMUTABLE_FL;
	return ioctl(fd, FS_IOC_SETFLAGS, &flags) ? -errno : 0;
}

static void set_immutable(int fd)
{
	int flags;

	if (!ioctl(fd, FS_IOC_GETFLAGS, &flags)) {
		flags |= FS_IMMUTABLE_FL;
		ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
}

static int write_efivarfs(enum boot_gpu want)
{
	unsigned char buf[8] = { PREFS_ATTRS, 0, 0, 0, want == GPU_INTEGRATED, 0, 0, 0 };
	char path[600];
	bool was = false;
	ssize_t w;
	int fd, ret;

	path_of(path, sizeof(path), EFIVARFS_DIR "/" PREFS_VAR);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		ret = clear_immutable(fd, &was);
		if (ret) {
			close(fd);
			return errorf(EXIT_ERROR, "%s: cannot clear the immutable flag: %s", path,
				      strerror(-ret));
		}
	} else if (errno != ENOENT) {
		return errorf(EXIT_ERROR, "%s: %s", path, strerror(errno));
	}

	if (want == GPU_UNSET) {
		ret = fd < 0 || !unlink(path) ? 0 : -errno;
	} else {
		int wfd = open(path, O_WRONLY | O_CREAT, 0644);

		if (wfd < 0) {
			ret = -errno;
		} else {
			w = write(wfd, buf, sizeof(buf));
			ret = w == (ssize_t)sizeof(buf) ? 0 : w < 0 ? -errno : -EIO;
			if (close(wfd) && !ret)
				ret = -errno;
		}
	}
	if (fd >= 0) {
		if (was && want != GPU_UNSET)
			set_immutable(fd);
		close(fd);
	}
	if (ret)
		return errorf(EXIT_ERROR, "%s: cannot %s it: %s", path,
			      want == GPU_UNSET ? "delete" : "write", strerror(-ret));
	return 0;
}

static int write_attr(const char *attr, enum boot_gpu want)
{
	int fd = open(attr, O_WRONLY | O_TRUNC);
	const char *w = gpu_names[want];
	ssize_t n;

	if (fd < 0)
		return errorf(errno == EACCES || errno == EPERM ? EXIT_REFUSED : EXIT_ERROR,
			      "%s: %s", attr, strerror(errno));
	n = write(fd, w, strlen(w));
	if (n < 0) {
		int err = errno;

		close(fd);
		return errorf(err == EPERM ? EXIT_REFUSED : EXIT_ERROR, "%s: the kernel refused %s: %s",
			      attr, w, strerror(err));
	}
	close(fd);
	return 0;
}

static int do_set(struct state *s, enum boot_gpu want, bool force_efivarfs)
{
	enum boot_gpu before = s->next;
	int ret;

	if (s->no_gmux)
		return errorf(EXIT_REFUSED, "refused: %s (%s)", s->no_gmux,
			      s->product[0] ? s->product : "unknown machine");
	if (!have_cap_sys_admin())
		return errorf(EXIT_REFUSED,
			      "refused: setting the boot GPU needs CAP_SYS_ADMIN (run it as root)");
	if (s->lockdown[0] && strcmp(s->lockdown, "none"))
		return errorf(EXIT_REFUSED,
			      "refused: the kernel is locked down (%s): firmware variables that steer the boot are not written",
			      s->lockdown);

	if (s->attr[0] && !force_efivarfs) {
		ret = write_attr(s->attr, want);
	} else {
		if (!s->efivarfs)
			return errorf(EXIT_ERROR,
				      "%s and efivarfs is not mounted (mount -t efivarfs efivarfs " EFIVARFS_DIR ")",
				      s->attr[0] ? "--efivarfs was given" :
				      "apple_gmux_ng has not bound the gmux");
		if (s->next == GPU_NONE)
			return errorf(EXIT_ERROR, "cannot read the variable: %s", s->read_error);
		ret = before == want ? 0 : write_efivarfs(want);
	}
	if (ret)
		return ret;

	read_next(s, force_efivarfs);
	if (s->next != want)
		return errorf(EXIT_ERROR, "wrote %s, but the variable reads back as %s%s%s",
			      gpu_names[want], s->next == GPU_NONE ? "unreadable" : gpu_names[s->next],
			      s->read_error[0] ? ": " : "", s->read_error);
	printf("next boot GPU: %s (was %s; through %s)\n", gpu_names[want],
	       before == GPU_NONE ? "unreadable" : gpu_names[before], s->source);
	return 0;
}

int main(int argc, char **argv)
{
	bool json = false, force_efivarfs = false;
	enum boot_gpu want = GPU_NONE;
	const char *cmd = NULL;
	struct state s;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			print_help(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--efivarfs")) {
			force_efivarfs = true;
		} else if (!strcmp(argv[i], "--root") && i + 1 < argc) {
			root = argv[++i];
		} else if (argv[i][0] == '-' || cmd) {
			print_help(stderr);
			return errorf(EXIT_USAGE, "unexpected argument '%s'", argv[i]);
		} else {
			cmd = argv[i];
		}
	}
	if (cmd && strcmp(cmd, "status")) {
		want = parse_gpu_word(cmd);
		if (want == GPU_NONE || want == GPU_UNKNOWN) {
			print_help(stderr);
			return errorf(EXIT_USAGE, "unknown command '%s'", cmd);
		}
		if (json)
			return errorf(EXIT_USAGE, "--json goes with status only");
	}

	probe(&s, force_efivarfs);
	if (want == GPU_NONE) {
		print_status(&s, json);
		return s.next == GPU_NONE && !s.no_gmux ? EXIT_ERROR : EXIT_OK;
	}
	return do_set(&s, want, force_efivarfs);
}
