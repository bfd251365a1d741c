/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding a device's own GPE methods in a table's AML (src/lib/aml_gpe.c).
 *
 * Copyright (C) 2026 The macsupport developers
 */
#ifndef MACSUPPORT_AML_GPE_H
#define MACSUPPORT_AML_GPE_H

#include "macsupport/lib_types.h"

/* Scope depth the walker follows (segments of an absolute path). */
#define AML_GPE_MAX_DEPTH	16

/**
 * struct aml_gpe_method - a GPE method of a Scope (\_GPE)
 * @gpe: the GPE number (the xx of _Lxx or _Exx)
 * @level: _Lxx, level-triggered; else _Exx, edge-triggered
 * @pad: the GPIO pad whose RX inversion the method both reads and writes
 *	(it calls \_SB.GGII (pad) and \_SB.SGII (pad, ...), with the same
 *	constant pad each time: Apple's Alpine Ridge plug GPE flips it), or 0
 */
struct aml_gpe_method {
	unsigned int gpe;
	bool level;
	u32 pad;
};

/**
 * aml_find_scope_gpe() - the GPE methods a device's scope declares
 * @aml: an ACPI table's definition block (the AML after its 36-byte header)
 * @len: its length in bytes
 * @path: the device's absolute ACPI path, 4-character segments joined by
 *	'.', as acpi_get_name(ACPI_FULL_PATHNAME) gives it ("\_SB_.PCI0.RP05")
 * @found: where the methods found go
 * @max: room in @found
 *
 * Apple's Thunderbolt 3 tables declare the GPE that fires on a plug as the
 * only method of a Scope (\_GPE) written directly inside the scope of the
 * controller's root port: Scope (\_SB.PCI0.RP05) { Scope (\_GPE) { Method
 * (_L32) ... } }. ACPICA's namespace keeps the method (as \_GPE._L32) but
 * not where it was written, so the table itself is walked: every
 * Scope (\_GPE) that is a direct child of a Scope or Device resolving to
 * @path counts; one nested deeper (a DisplayPort GPE inside the
 * controller's UPSB on Macmini8,1) does not.
 *
 * The walker follows the term lists of scopes, devices and If/Else blocks
 * and steps over everything else by its length; an object it cannot step
 * over (an opcode it does not know at that level) ends the walk with an
 * error rather than a guess. The body of each method found is searched
 * for the pad it flips (&struct aml_gpe_method.pad).
 *
 * Return: the number of methods found (0 if none; at most @max are stored),
 * or -EINVAL if the AML could not be walked.
 */
int aml_find_scope_gpe(const u8 *aml, size_t len, const char *path,
		       struct aml_gpe_method *found, unsigned int max);

/* Length of an ACPI table's header, before its definition block. */
#define AML_TABLE_HEADER_LEN	36

/**
 * aml_table_scope_gpe() - aml_find_scope_gpe() over a whole ACPI table
 * @table: the table, its 36-byte header included
 * @len: bytes available at @table
 * @path: as for aml_find_scope_gpe()
 * @found: where the methods found go
 * @max: room in @found
 *
 * The table's own length (the header's Length field) bounds the walk; it
 * must cover the header and fit in @len. A table that is nothing but its
 * header is valid and declares nothing: Apple ships such SSDTs on most
 * Thunderbolt 3 Macs ("SmcDppt", "PEG0SSD0", 36 bytes), and they must not
 * make a table set unreadable.
 *
 * Return: as aml_find_scope_gpe(): the number of methods found, 0 for a
 * header-only table, or -EINVAL if the table is truncated or its AML could
 * not be walked.
 */
int aml_table_scope_gpe(const u8 *table, size_t len, const char *path,
			struct aml_gpe_method *found, unsigned int max);

/**
 * enum aml_obj_type - what aml_walk_objects() shows its visitor
 * @AML_OBJ_SCOPE: a DefScope; @data is its term list, after the name
 * @AML_OBJ_DEVICE: a DefDevice; @data as for a scope
 * @AML_OBJ_METHOD: a DefMethod; @data is its body, after MethodFlags
 * @AML_OBJ_NAME: a DefName; @data is its data object
 */
enum aml_obj_type {
	AML_OBJ_SCOPE,
	AML_OBJ_DEVICE,
	AML_OBJ_METHOD,
	AML_OBJ_NAME,
};

/**
 * struct aml_obj - a named object the walk met
 * @type: its kind
 * @seg: its absolute path, @depth segments of 4 characters ('_'-padded,
 *	not NUL-terminated); valid only during the call
 * @depth: the number of segments
 * @args: a method's argument count (0-7)
 * @data: see &enum aml_obj_type; within the AML the walk was given
 * @len: bytes at @data, up to the end of the object
 */
struct aml_obj {
	enum aml_obj_type type;
	const char (*seg)[4];
	unsigned int depth;
	unsigned int args;
	const u8 *data;
	size_t len;
};

/**
 * typedef aml_visit_fn - the visitor of aml_walk_objects()
 * @ctx: what the caller gave aml_walk_objects()
 * @obj: the object met (its @seg valid only during the call)
 *
 * Called once per scope, device, method and name, in the order of the
 * table; it cannot stop the walk.
 */
typedef void (*aml_visit_fn)(void *ctx, const struct aml_obj *obj);

/**
 * aml_walk_objects() - every scope, device, method and name of a table
 * @aml: the definition block (the AML after the table's header)
 * @len: its length in bytes
 * @visit: called for each object, in the order of the table
 * @ctx: passed to @visit
 * @err: where the walk stopped when it fails (an offset in @aml); may be
 *	NULL
 *
 * The same walk as aml_find_scope_gpe(), with the same bounds checks: a
 * method's or name's body is handed over, never interpreted. Objects in an
 * If/Else body the walk later gives up on (it steps over such a body) have
 * already been shown to @visit.
 *
 * Return: 0, or -EINVAL if the AML could not be walked (what was visited
 * before stays visited).
 */
int aml_walk_objects(const u8 *aml, size_t len, aml_visit_fn visit, void *ctx,
		     size_t *err);

/**
 * aml_table_check() - whether a buffer holds a whole, intact ACPI table
 * @table: the bytes, header first
 * @len: bytes available at @table
 * @length: set to the header's Length field when the header is there
 *
 * Return: 0 if the header is whole, its Length covers the header and fits
 * in @len and the bytes it covers sum to 0 (the checksum); -ENODATA if the
 * header or the table is cut short (*@length then says how long it should
 * be, when the header is whole), -EINVAL if Length is shorter than the
 * header, -EBADMSG on a bad checksum.
 */
int aml_table_check(const u8 *table, size_t len, u32 *length);

/**
 * aml_int_const() - an integer constant of AML (Zero, One, Ones, Byte,
 *	Word, DWord or QWord)
 * @data: where it starts
 * @len: bytes available
 * @v: its value
 *
 * Return: its length in bytes, or -EINVAL if @data holds no whole constant.
 */
int aml_int_const(const u8 *data, size_t len, u64 *v);

/**
 * aml_pkg_object() - the contents of a Buffer, Package or VarPackage
 * @data: its opcode
 * @len: bytes available
 * @body: set to what follows its PkgLength (a Buffer's size, then its
 *	bytes; a Package's element count, then its elements)
 * @body_len: the bytes of @body, as its PkgLength says
 *
 * Return: 0, or -EINVAL if @data holds no whole such object.
 */
int aml_pkg_object(const u8 *data, size_t len, const u8 **body, size_t *body_len);

#endif /* MACSUPPORT_AML_GPE_H */
