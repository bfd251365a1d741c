// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark (make bench): time to check and walk Apple device-property
 * blobs with the shared parser, per KiB, on synthetic blobs of several
 * shapes. Median of repeated runs; the parser itself allocates nothing.
 */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "macsupport/apple_props.h"

struct shape {
	const char *name;
	unsigned int nodes;
	unsigned int props;
	unsigned int value_len;
};

static const struct shape shapes[] = {
	{ "small (1 node, 3 props, 8 B values)", 1, 3, 8 },
	{ "gpu-like (4 nodes, 15 props, 64 B values)", 4, 15, 64 },
	{ "drom-like (8 nodes, 6 props, 4 KiB values)", 8, 6, 4096 },
	{ "many (64 nodes, 40 props, 16 B values)", 64, 40, 16 },
	{ "gpu-max (2 nodes, 82 props, 32 B values)", 2, 82, 32 },
	{ "bound (54 nodes, 256 props, 1 B values)", 54, 256, 1 },
};

/* PciRoot(0x0)/Pci(n,0x0)/Pci(0x0,0x0) */
static size_t make_path(u8 *p, unsigned int n)
{
	static const u8 acpi[] = { 2, 1, 12, 0, 0xd0, 0x41, 0x03, 0x0a, 0, 0, 0, 0 };
	size_t len = 0;

	for (len = 0; len < sizeof(acpi); len++)
		p[len] = acpi[len];
	p[len++] = 1; p[len++] = 1; p[len++] = 6; p[len++] = 0;
	p[len++] = 0; p[len++] = (u8)(n & 0x1f);
	p[len++] = 1; p[len++] = 1; p[len++] = 6; p[len++] = 0;
	p[len++] = 0; p[len++] = 0;
	p[len++] = 0x7f; p[len++] = 0xff; p[len++] = 4; p[len++] = 0;
	return len;
}

static u8 *build(const struct shape *s, size_t *len)
{
	struct apple_props_enc enc;
	u8 path[64], *value, *buf = NULL;
	char key[32];
	unsigned int n, i, pass;

	value = calloc(1, s->value_len);
	for (pass = 0; pass < 2; pass++) {
		apple_props_enc_init(&enc, buf, buf ? *len : 0);
		for (n = 0; n < s->nodes; n++) {
			apple_props_enc_node(&enc, path, make_path(path, n));
			for (i = 0; i < s->props; i++) {
				snprintf(key, sizeof(key), "bench-key-%u", i);
				apple_props_enc_prop(&enc, key, value, i % 5 ? s->value_len : 0);
			}
		}
		if (!apple_props_enc_finish(&enc, len))
			break;
		buf = malloc(*len);
	}
	free(value);
	return buf;
}

static int count_prop(void *ctx, const struct apple_props_node *node,
		      const struct apple_props_prop *prop)
{
	char key[128];

	(void)node;
	(*(unsigned long *)ctx)++;
	return apple_props_key_to_utf8(prop->key, prop->key_len, key, sizeof(key)) < 0;
}

static const struct apple_props_ops ops = { .prop = count_prop };

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	unsigned int i, r, reps;
	double t[15];

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		unsigned long props = 0;
		size_t len;
		u8 *blob = build(&shapes[i], &len);

		if (!blob || apple_props_parse(blob, len, &ops, &props, NULL)) {
			printf("bench apple_props parse %s: FAILED\n", shapes[i].name);
			return 1;
		}
		reps = 2000000 / (len / 64 + 1) + 1;
		for (r = 0; r < 15; r++) {
			double t0 = now_ns();
			unsigned int k;

			for (k = 0; k < reps; k++)
				apple_props_parse(blob, len, &ops, &props, NULL);
			t[r] = (now_ns() - t0) / reps;
		}
		qsort(t, 15, sizeof(t[0]), cmp_d);
		printf("bench apple_props parse %s: %zu bytes, median %.0f ns per blob, %.0f ns/KiB (min %.0f ns/KiB), parser allocations 0\n",
		       shapes[i].name, len, t[7], t[7] * 1024 / len, t[0] * 1024 / len);
		free(blob);
	}
	return 0;
}
