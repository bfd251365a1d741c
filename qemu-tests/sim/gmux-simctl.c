// SPDX-License-Identifier: GPL-2.0
/*
 * gmux-simctl - steer the harness's gmux simulator from inside a guest
 * (TEST ONLY; linked statically for the busybox initramfs)
 *
 * usage: gmux-simctl fault none|stuck|garbage|lost|slow|sticky-status|refuse-switch|power-stuck|power-silent
 *        gmux-simctl slow-us N
 *        gmux-simctl stuck-after N
 *        gmux-simctl raise BITS
 *        gmux-simctl max-brightness N
 *        gmux-simctl reset-stats
 *        gmux-simctl stats
 *        gmux-simctl get KEY
 *        gmux-simctl peek OFFSET
 *        gmux-simctl bench [N]
 *
 * The simulator's window is GMUX_SIM_WINDOW_LEN bytes at GMUX_SIM_BAR_OFFSET
 * in BAR2 of the ivshmem-plain device (PCI 1af4:1110); this tool maps it
 * through the device's sysfs resource2 file. Debian's kernel has
 * CONFIG_IO_STRICT_DEVMEM=y, which refuses that mmap when the BAR's start
 * lies in a region a driver claimed; the window starts 64 KiB into the BAR,
 * so apple_gmux_ng's claim of the window never covers the BAR's start.
 *
 * "stuck-after N" lets the next N register accesses complete, then sticks
 * the handshake as "fault stuck" does (a gmux that hangs between two
 * accesses of the driver, e.g. between suspend and resume); "fault none"
 * releases it.
 *
 * "stats" prints key=value lines, "get KEY" one value: kind (classic,
 * indexed, t2), fault (none, stuck, garbage, lost, slow, sticky-status,
 * refuse-switch, power-stuck, power-silent) and, in decimal, reads writes reg_reads
 * reg_writes irqs_raised irqs_cleared int_status int_enable brightness
 * dropped switch_display switch_ddc switch_external power dgpu_on dgpu_offs (power
 * cuts of the modelled dGPU since the simulator started), max_gap_us (the
 * longest time, in microseconds, between two polls of the simulator since
 * the stats were reset: above the driver's 15 ms handshake timeout, a
 * timeout is the host's starving the simulator, not the gmux) head tail.
 *
 * "max-brightness N" changes what the MAX_BRIGHTNESS register reports (a
 * driver reads it at probe: reload it), e.g. 0x3ff as some T2 iMacs; the
 * BRIGHTNESS register keeps taking 24 bits.
 *
 * Control requests: OP and ARG are written, then SEQ is bumped; the
 * simulator answers by setting RESULT and copying SEQ into ACK.
 *
 * With GMUX_SIMCTL_SHM=/dev/shm/FILE in the environment it maps the
 * simulator's file directly instead (on the host, for debugging).
 *
 * "bench" measures the round trip the driver sees: it plays the driver's
 * test transport (access plus journal entry) for N register reads. Only
 * while no driver is bound to the gmux: two producers would corrupt the
 * journal.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "macsupport/gmux_model.h"
#include "macsupport/gmux_regs.h"
#include "macsupport/gmux_sim.h"
#include "macsupport/mac_model.h"
#include "sim-window.h"

#define PCI_DEVICES		"/sys/bus/pci/devices"
#define PNP_DEVICES		"/sys/bus/pnp/devices"
#define IVSHMEM_VENDOR		0x1af4
#define IVSHMEM_DEVICE		0x1110
#define CTL_TIMEOUT_US		2000000

static const char * const fault_names[] = {
	[GMUX_FAULT_NONE] = "none",
	[GMUX_FAULT_STUCK_BUSY] = "stuck",
	[GMUX_FAULT_GARBAGE_VERSION] = "garbage",
	[GMUX_FAULT_LOST_COMPLETION] = "lost",
	[GMUX_FAULT_SLOW] = "slow",
	[GMUX_FAULT_STICKY_STATUS] = "sticky-status",
	[GMUX_FAULT_REFUSE_SWITCH] = "refuse-switch",
	[GMUX_FAULT_POWER_STUCK] = "power-stuck",
	[GMUX_FAULT_POWER_SILENT] = "power-silent",
};

static const struct {
	const char *key;
	unsigned int off;
} stat_keys[] = {
	{ "reads", GMUX_SIM_ST_READS },
	{ "writes", GMUX_SIM_ST_WRITES },
	{ "reg_reads", GMUX_SIM_ST_REG_READS },
	{ "reg_writes", GMUX_SIM_ST_REG_WRITES },
	{ "irqs_raised", GMUX_SIM_ST_IRQS_RAISED },
	{ "irqs_cleared", GMUX_SIM_ST_IRQS_CLEARED },
	{ "int_status", GMUX_SIM_ST_INT_STATUS },
	{ "int_enable", GMUX_SIM_ST_INT_ENABLE },
	{ "brightness", GMUX_SIM_ST_BRIGHTNESS },
	{ "fault", GMUX_SIM_ST_FAULT },
	{ "dropped", GMUX_SIM_ST_DROPPED },
	{ "switch_display", GMUX_SIM_ST_SWITCH_DISPLAY },
	{ "switch_ddc", GMUX_SIM_ST_SWITCH_DDC },
	{ "switch_external", GMUX_SIM_ST_SWITCH_EXTERNAL },
	{ "power", GMUX_SIM_ST_POWER },
	{ "dgpu_on", GMUX_SIM_ST_DGPU_ON },
	{ "dgpu_offs", GMUX_SIM_ST_DGPU_OFFS },
	{ "max_gap_us", GMUX_SIM_ST_MAX_GAP_US },
	{ "head", GMUX_SIM_HEAD },
	{ "tail", GMUX_SIM_TAIL },
};

static int read_hex_file(const char *dir, const char *name, unsigned long *val)
{
	char path[512], buf[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	*val = strtoul(buf, NULL, 16);
	return 0;
}

/* The first ivshmem-plain device's sysfs directory, or NULL. */
static char *find_ivshmem(void)
{
	static char found[512];
	struct dirent *de;
	unsigned long ven, dev;
	DIR *d;

	d = opendir(PCI_DEVICES);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char dir[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", PCI_DEVICES, de->d_name);
		if (read_hex_file(dir, "vendor", &ven) || read_hex_file(dir, "device", &dev))
			continue;
		if (ven == IVSHMEM_VENDOR && dev == IVSHMEM_DEVICE) {
			snprintf(found, sizeof(found), "%s", dir);
			closedir(d);
			return found;
		}
	}
	closedir(d);
	return NULL;
}

static u8 *map_window(void)
{
	char path[600], *dev = find_ivshmem();
	const char *file = getenv("GMUX_SIMCTL_SHM");
	struct stat st;
	void *p;
	int fd;

	/* On the host, for debugging: the simulator's file itself. */
	if (file && *file) {
		snprintf(path, sizeof(path), "%s", file);
		goto open;
	}
	if (!dev) {
		fprintf(stderr, "gmux-simctl: no ivshmem-plain device (PCI %04x:%04x): this guest has no gmux simulator\n",
			IVSHMEM_VENDOR, IVSHMEM_DEVICE);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/resource2", dev);
open:
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0) {
		fprintf(stderr, "gmux-simctl: cannot open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	if (fstat(fd, &st) == 0 && st.st_size < GMUX_SIM_BAR_OFFSET + GMUX_SIM_WINDOW_LEN) {
		fprintf(stderr, "gmux-simctl: %s is %lld bytes, too small for the window at %#x\n",
			path, (long long)st.st_size, GMUX_SIM_BAR_OFFSET);
		exit(1);
	}
	p = mmap(NULL, GMUX_SIM_WINDOW_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 GMUX_SIM_BAR_OFFSET);
	close(fd);
	if (p == MAP_FAILED) {
		fprintf(stderr, "gmux-simctl: cannot map %s at %#x: %s%s\n", path,
			GMUX_SIM_BAR_OFFSET, strerror(errno),
			errno == EINVAL ? " (a driver may have claimed the BAR's start)" :
			errno == EPERM ? " (kernel lockdown forbids mapping PCI resources)" : "");
		exit(1);
	}
	if (simw_load(p, GMUX_SIM_MAGIC) != GMUX_SIM_MAGIC_VALUE) {
		fprintf(stderr, "gmux-simctl: no simulator in %s (magic %#x, want %#x): is gmux-sim running on the host?\n",
			path, simw_load(p, GMUX_SIM_MAGIC), GMUX_SIM_MAGIC_VALUE);
		exit(1);
	}
	return p;
}

static int control(u8 *win, u32 op, u32 arg)
{
	u32 seq = simw_load(win, GMUX_SIM_CTL_SEQ) + 1;
	u64 deadline = simw_now_us() + CTL_TIMEOUT_US;
	struct timespec ts = { 0, 20000 };
	u32 res;

	simw_store(win, GMUX_SIM_CTL_OP, op);
	simw_store(win, GMUX_SIM_CTL_ARG, arg);
	simw_store(win, GMUX_SIM_CTL_SEQ, seq);
	while (simw_load(win, GMUX_SIM_CTL_ACK) != seq) {
		if (simw_now_us() > deadline) {
			fprintf(stderr, "gmux-simctl: the simulator did not answer request %u (op %u) within 2 s\n",
				seq, op);
			return 1;
		}
		nanosleep(&ts, NULL);
	}
	res = simw_load(win, GMUX_SIM_CTL_RESULT);
	if (res) {
		fprintf(stderr, "gmux-simctl: the simulator refused op %u arg %u: %s\n", op, arg,
			strerror(res));
		return 1;
	}
	return 0;
}

static int parse_u32(const char *s, u32 *val)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > 0xffffffffUL) {
		fprintf(stderr, "gmux-simctl: '%s' is not a number\n", s);
		return -EINVAL;
	}
	*val = v;
	return 0;
}

static const char *kind_name(u32 kind)
{
	return kind <= MAC_GMUX_UNKNOWN ? mac_gmux_kind_name(kind) : "?";
}

static void print_stat(u8 *win, unsigned int i, bool with_key)
{
	u32 v = simw_load(win, stat_keys[i].off);

	if (with_key)
		printf("%s=", stat_keys[i].key);
	if (stat_keys[i].off == GMUX_SIM_ST_FAULT)
		printf("%s\n", v < ARRAY_SIZE(fault_names) ? fault_names[v] : "?");
	else
		printf("%u\n", v);
}

static int cmd_get(u8 *win, const char *key, bool with_key)
{
	unsigned int i;

	if (!strcmp(key, "kind")) {
		if (with_key)
			printf("kind=");
		printf("%s\n", kind_name(simw_load(win, GMUX_SIM_KIND)));
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(stat_keys); i++) {
		if (!strcmp(key, stat_keys[i].key)) {
			print_stat(win, i, with_key);
			return 0;
		}
	}
	fprintf(stderr, "gmux-simctl: unknown key '%s'\n", key);
	return 1;
}

static int cmd_stats(u8 *win)
{
	unsigned int i;

	cmd_get(win, "kind", true);
	for (i = 0; i < ARRAY_SIZE(stat_keys); i++)
		print_stat(win, i, true);
	return 0;
}

/* True if a driver is bound to the gmux's PNP device (id APP000b). */
static bool gmux_driver_bound(void)
{
	struct dirent *de;
	bool bound = false;
	DIR *d;

	d = opendir(PNP_DEVICES);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		char path[512], id[16] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/id", PNP_DEVICES, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(id, sizeof(id), f) && !strncmp(id, "APP000b", 7)) {
			snprintf(path, sizeof(path), "%s/%s/driver", PNP_DEVICES, de->d_name);
			bound |= access(path, F_OK) == 0;
		}
		fclose(f);
	}
	closedir(d);
	return bound;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void print_latency(const char *what, u64 *lat, unsigned int n)
{
	u64 sum = 0;
	unsigned int i;

	qsort(lat, n, sizeof(*lat), cmp_u64);
	for (i = 0; i < n; i++)
		sum += lat[i];
	printf("%s: n=%u min=%llu median=%llu p99=%llu max=%llu mean=%llu (us)\n", what, n,
	       (unsigned long long)lat[0], (unsigned long long)lat[n / 2],
	       (unsigned long long)lat[(u64)n * 99 / 100], (unsigned long long)lat[n - 1],
	       (unsigned long long)(sum / n));
}

static int cmd_bench(u8 *win, unsigned int n)
{
	u32 kind = simw_load(win, GMUX_SIM_KIND);
	struct simw_guest g = { .win = win, .timeout_us = GMUX_TIMEOUT_US };
	unsigned int i, errors = 0;
	struct gmux_io io = { 0 };
	u64 *lat, t0;
	u32 val;
	int ret;

	if (gmux_driver_bound()) {
		fprintf(stderr, "gmux-simctl: a driver is bound to the gmux; unbind it before bench\n");
		return 1;
	}
	if (!n || n > 100000) {
		fprintf(stderr, "gmux-simctl: bench count must be 1..100000\n");
		return 1;
	}
	lat = calloc(n, sizeof(*lat));
	if (!lat)
		return 1;

	/* Journal round trip: one entry, until the simulator has taken it. */
	for (i = 0; i < n; i++) {
		t0 = simw_now_us();
		simw_read8(&g, kind == MAC_GMUX_T2 ? GMUX_T2_COMMAND : GMUX_PORT_VERSION_MAJOR);
		if (simw_sync(&g))
			errors++;
		lat[i] = simw_now_us() - t0;
	}
	print_latency("journal", lat, n);

	if (kind == MAC_GMUX_INDEXED || kind == MAC_GMUX_T2) {
		simw_gmux_io(&g, kind, &io);
		for (i = 0; i < n; i++) {
			t0 = simw_now_us();
			ret = gmux_io_read32(&io, GMUX_PORT_BRIGHTNESS, &val);
			lat[i] = simw_now_us() - t0;
			if (ret)
				errors++;
		}
		print_latency("register-read", lat, n);
	}
	simw_sync(&g);
	printf("errors=%u timeouts=%lu\n", errors, g.timeouts + io.timeouts);
	free(lat);
	return errors ? 1 : 0;
}

static int fault_parse(const char *s, u32 *fault)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fault_names); i++) {
		if (!strcmp(s, fault_names[i])) {
			*fault = i;
			return 0;
		}
	}
	fprintf(stderr, "gmux-simctl: unknown fault '%s' (none, stuck, garbage, lost, slow)\n", s);
	return -EINVAL;
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: gmux-simctl fault none|stuck|garbage|lost|slow|sticky-status|refuse-switch|power-stuck|power-silent\n"
		"       gmux-simctl slow-us N\n"
		"       gmux-simctl stuck-after N\n"
		"       gmux-simctl raise BITS\n"
		"       gmux-simctl max-brightness N\n"
		"       gmux-simctl reset-stats\n"
		"       gmux-simctl stats\n"
		"       gmux-simctl get KEY\n"
		"       gmux-simctl peek OFFSET\n"
		"       gmux-simctl bench [N]\n"
		"TEST ONLY: steers the host's gmux-sim through the ivshmem window.\n");
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	u8 *win;
	u32 arg = 0;

	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		print_usage(stdout);
		return 0;
	}
	if (argc < 2 || argc > 3) {
		print_usage(stderr);
		return 1;
	}

	if (!strcmp(cmd, "fault") && argc == 3) {
		if (fault_parse(argv[2], &arg))
			return 1;
		win = map_window();
		return control(win, GMUX_SIM_OP_FAULT, arg);
	}
	if (!strcmp(cmd, "slow-us") && argc == 3) {
		if (parse_u32(argv[2], &arg))
			return 1;
		win = map_window();
		return control(win, GMUX_SIM_OP_SLOW_US, arg);
	}
	if (!strcmp(cmd, "stuck-after") && argc == 3) {
		if (parse_u32(argv[2], &arg) || !arg) {
			fprintf(stderr, "gmux-simctl: stuck-after takes a count of 1 or more\n");
			return 1;
		}
		win = map_window();
		return control(win, GMUX_SIM_OP_STUCK_AFTER, arg);
	}
	if (!strcmp(cmd, "raise") && argc == 3) {
		if (parse_u32(argv[2], &arg) || arg > 0xff) {
			fprintf(stderr, "gmux-simctl: raise takes interrupt bits 0..0xff\n");
			return 1;
		}
		win = map_window();
		return control(win, GMUX_SIM_OP_RAISE, arg);
	}
	if (!strcmp(cmd, "max-brightness") && argc == 3) {
		if (parse_u32(argv[2], &arg) || arg > GMUX_BRIGHTNESS_MASK) {
			fprintf(stderr, "gmux-simctl: max-brightness takes 0..0xffffff\n");
			return 1;
		}
		return control(map_window(), GMUX_SIM_OP_MAX_BRIGHTNESS, arg);
	}
	if (!strcmp(cmd, "reset-stats") && argc == 2)
		return control(map_window(), GMUX_SIM_OP_RESET_STATS, 0);
	if (!strcmp(cmd, "stats") && argc == 2)
		return cmd_stats(map_window());
	if (!strcmp(cmd, "get") && argc == 3)
		return cmd_get(map_window(), argv[2], false);
	if (!strcmp(cmd, "peek") && argc == 3) {
		if (parse_u32(argv[2], &arg) || arg > 0xff) {
			fprintf(stderr, "gmux-simctl: peek takes a register offset 0..0xff\n");
			return 1;
		}
		win = map_window();
		printf("0x%02x\n", simw_get8(win, GMUX_SIM_REGS + arg));
		return 0;
	}
	if (!strcmp(cmd, "bench")) {
		if (argc == 3 && parse_u32(argv[2], &arg))
			return 1;
		return cmd_bench(map_window(), argc == 3 ? arg : 1000);
	}
	print_usage(stderr);
	return 1;
}
