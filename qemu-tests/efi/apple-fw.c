// SPDX-License-Identifier: GPL-2.0
/*
 * apple-fw.c - TEST ONLY: a fake Apple firmware layer for the QEMU harness
 *
 * DOC: Overview
 *
 * OVMF starts this EFI application as \EFI\BOOT\BOOTX64.EFI from a virtual
 * FAT drive. It makes OVMF look like the part of a Mac's firmware that the
 * Linux EFI stub cares about, then boots Debian's kernel from the same
 * volume, so that the kernel takes the same path as on a real Mac:
 *
 *  1. It reads \apple-props.bin (the profile's device-properties blob, in
 *     the v1 buffer format) into memory and installs a protocol interface
 *     under Apple's device-properties GUID with revision 0x10000 and the
 *     methods get, set, del and get_all, all serving that in-memory copy.
 *     Sizes are UINTN, as 64-bit Apple firmware has them. Without the file,
 *     or with a malformed one, nothing is installed and the reason printed.
 *  2. It points SystemTable->FirmwareVendor at L"Apple" and recomputes the
 *     system table header's CRC32 (field zeroed first).
 *  3. It deletes any AAPL,PathProperties0000 .. AAPL,PathProperties00FF
 *     variables under Apple's NVRAM vendor GUID, then, if \nvram-props.bin
 *     (a second blob in the same v1 format) exists, writes it split into
 *     chunks of at most NVRAM_CHUNK_SIZE bytes as AAPL,PathProperties0000,
 *     0001, ... (non-volatile, boot and runtime access), which is how real
 *     Macs persist device properties in NVRAM: the variables' contents,
 *     concatenated in order, are the blob.
 *  4. It loads \vmlinuz with LoadImage and starts it with the load options
 *     "initrd=\initrd.img <contents of \cmdline.txt>". With
 *     "apple_fw.set_os=..." in \cmdline.txt it installs Apple's set_os
 *     protocol and starts the bundle's set-os app instead, which starts the
 *     kernel (set-os-fake.c); only if the app returns does apple-fw start
 *     the kernel itself.
 *
 * The EFI stub then sees vendor "Apple", calls get_all and hands the blob to
 * the kernel's built-in apple-properties parser as setup_data type 5.
 *
 * Messages go to the console (serial under QEMU), prefixed "apple-fw: ".
 */

#include <efi.h>
#include <efilib.h>
#include "set-os-fake.h"

#define APPLE_PROPS_REVISION	0x10000
#define APPLE_PROPS_BUF_VERSION	1

#define PROPS_FILE	L"\\apple-props.bin"
#define NVRAM_FILE	L"\\nvram-props.bin"
#define CMDLINE_FILE	L"\\cmdline.txt"
#define KERNEL_FILE	L"\\vmlinuz"
#define INITRD_OPTION	L"initrd=\\initrd.img "

/* Largest blob or command line this app will read (real blobs are < 16 KiB). */
#define PROPS_MAX_SIZE	(1024 * 1024)
#define CMDLINE_MAX_SIZE	4096

/*
 * NVRAM copies: AAPL,PathProperties%04X for 0x0000..NVRAM_MAX_VARS - 1. The
 * chunk is small on purpose, so that a small test blob spans several
 * variables.
 */
#define NVRAM_VAR_PREFIX	L"AAPL,PathProperties"
#define NVRAM_CHUNK_SIZE	64
#define NVRAM_MAX_VARS		0x100
#define NVRAM_MAX_SIZE		(NVRAM_CHUNK_SIZE * NVRAM_MAX_VARS)
#define NVRAM_ATTRS		(EFI_VARIABLE_NON_VOLATILE | \
				 EFI_VARIABLE_BOOTSERVICE_ACCESS | \
				 EFI_VARIABLE_RUNTIME_ACCESS)

/* Blob layout: header, then nodes of {len, count, device path, properties}. */
#define BUF_HDR_SIZE	12	/* u32 len, u32 version, u32 node count */
#define NODE_HDR_SIZE	8	/* u32 len, u32 property count */
#define DP_HDR_SIZE	4	/* u8 type, u8 subtype, u16 len */
#define DP_TYPE_END	0x7f
#define DP_SUBTYPE_END_ENTIRE	0xff

static EFI_GUID apple_props_guid = {
	0x91bd12fe, 0xf6c3, 0x44fb, { 0xa5, 0xb7, 0x51, 0x22, 0xab, 0x30, 0x3a, 0xe0 }
};

/* Apple's NVRAM vendor GUID, 7C436110-AB2A-4BBB-A880-FE41995C9F82. */
static EFI_GUID apple_nvram_guid = {
	0x7c436110, 0xab2a, 0x4bbb, { 0xa8, 0x80, 0xfe, 0x41, 0x99, 0x5c, 0x9f, 0x82 }
};

/* Apple's EFI_DEVICE_PATH_PROPERTY_DATABASE_PROTOCOL, 64-bit layout. */
struct apple_props_protocol {
	UINT64 revision;
	EFIAPI EFI_STATUS (*get)(struct apple_props_protocol *this, EFI_DEVICE_PATH *path,
				 CHAR16 *name, VOID *value, UINTN *size);
	EFIAPI EFI_STATUS (*set)(struct apple_props_protocol *this, EFI_DEVICE_PATH *path,
				 CHAR16 *name, VOID *value, UINTN size);
	EFIAPI EFI_STATUS (*del)(struct apple_props_protocol *this, EFI_DEVICE_PATH *path,
				 CHAR16 *name);
	EFIAPI EFI_STATUS (*get_all)(struct apple_props_protocol *this, VOID *buffer,
				     UINTN *size);
};

/**
 * struct prop - one property of a device node
 * @next: next property of the same node
 * @key: UTF-16 name, NUL-terminated
 * @key_size: bytes of @key including the NUL
 * @value: raw bytes (NULL when @value_size is 0, i.e. a boolean)
 * @value_size: bytes of @value
 */
struct prop {
	struct prop *next;
	CHAR16 *key;
	UINTN key_size;
	UINT8 *value;
	UINTN value_size;
};

/**
 * struct node - one device node of the database
 * @next: next node
 * @path: device path including its End-Entire node
 * @path_size: bytes of @path
 * @props: properties, in blob order (new ones appended)
 */
struct node {
	struct node *next;
	EFI_DEVICE_PATH *path;
	UINTN path_size;
	struct prop *props;
};

static struct node *db_nodes;

/* --- small helpers ------------------------------------------------------- */

static UINT32 get_le32(const UINT8 *p)
{
	return p[0] | (p[1] << 8) | (p[2] << 16) | ((UINT32)p[3] << 24);
}

static void put_le32(UINT8 *p, UINT32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static VOID *dup_mem(const VOID *src, UINTN size)
{
	VOID *p;

	p = AllocatePool(size ? size : 1);
	if (p && size)
		CopyMem(p, (VOID *)src, size);
	return p;
}

/**
 * dp_size() - bytes of a device path up to and including End-Entire
 * @path: the device path
 * @limit: bytes that may be read from @path
 *
 * Return: the size, or 0 if the path is malformed or does not end in @limit.
 */
static UINTN dp_size(const UINT8 *path, UINTN limit)
{
	UINTN off = 0, len;

	while (off + DP_HDR_SIZE <= limit) {
		len = path[off + 2] | (path[off + 3] << 8);
		if (len < DP_HDR_SIZE || len > limit - off)
			return 0;
		off += len;
		if (path[off - len] == DP_TYPE_END &&
		    path[off - len + 1] == DP_SUBTYPE_END_ENTIRE)
			return off;
	}
	return 0;
}

/* Bytes of a NUL-terminated UTF-16 string including the NUL. */
static UINTN key_bytes(const CHAR16 *key)
{
	return (StrLen((CHAR16 *)key) + 1) * sizeof(CHAR16);
}

/* --- the in-memory database ---------------------------------------------- */

static struct node *db_find_node(EFI_DEVICE_PATH *path, struct node ***link)
{
	UINTN size = dp_size((const UINT8 *)path, PROPS_MAX_SIZE);
	struct node **pp;

	if (!size)
		return NULL;
	for (pp = &db_nodes; *pp; pp = &(*pp)->next) {
		if ((*pp)->path_size == size && !CompareMem((*pp)->path, path, size)) {
			if (link)
				*link = pp;
			return *pp;
		}
	}
	return NULL;
}

static struct prop *db_find_prop(struct node *node, const CHAR16 *key, struct prop ***link)
{
	struct prop **pp;

	for (pp = &node->props; *pp; pp = &(*pp)->next) {
		if (!StrCmp((*pp)->key, (CHAR16 *)key)) {
			if (link)
				*link = pp;
			return *pp;
		}
	}
	return NULL;
}

static void db_free_prop(struct prop *prop)
{
	FreePool(prop->key);
	if (prop->value)
		FreePool(prop->value);
	FreePool(prop);
}

static void db_free_node(struct node *node)
{
	struct prop *prop, *next;

	for (prop = node->props; prop; prop = next) {
		next = prop->next;
		db_free_prop(prop);
	}
	FreePool(node->path);
	FreePool(node);
}

static void db_free(void)
{
	struct node *node, *next;

	for (node = db_nodes; node; node = next) {
		next = node->next;
		db_free_node(node);
	}
	db_nodes = NULL;
}

static struct node *db_add_node(const VOID *path, UINTN path_size)
{
	struct node *node, **pp;

	node = AllocateZeroPool(sizeof(*node));
	if (!node)
		return NULL;
	node->path = dup_mem(path, path_size);
	if (!node->path) {
		FreePool(node);
		return NULL;
	}
	node->path_size = path_size;
	for (pp = &db_nodes; *pp; pp = &(*pp)->next)
		;
	*pp = node;
	return node;
}

/* Set (replace or append) a property; key_size includes the NUL. */
static EFI_STATUS db_set(struct node *node, const CHAR16 *key, UINTN key_size,
			 const VOID *value, UINTN value_size)
{
	struct prop *prop, **pp;
	UINT8 *copy = NULL;

	if (value_size) {
		copy = dup_mem(value, value_size);
		if (!copy)
			return EFI_OUT_OF_RESOURCES;
	}
	prop = db_find_prop(node, key, NULL);
	if (prop) {
		if (prop->value)
			FreePool(prop->value);
		prop->value = copy;
		prop->value_size = value_size;
		return EFI_SUCCESS;
	}

	prop = AllocateZeroPool(sizeof(*prop));
	if (!prop)
		goto err_free_copy;
	prop->key = dup_mem(key, key_size);
	if (!prop->key)
		goto err_free_prop;
	prop->key_size = key_size;
	prop->value = copy;
	prop->value_size = value_size;
	for (pp = &node->props; *pp; pp = &(*pp)->next)
		;
	*pp = prop;
	return EFI_SUCCESS;

err_free_prop:
	FreePool(prop);
err_free_copy:
	if (copy)
		FreePool(copy);
	return EFI_OUT_OF_RESOURCES;
}

/* Size of the v1 buffer that db_serialize() writes. */
static UINTN db_buffer_size(UINT32 *node_count)
{
	UINTN size = BUF_HDR_SIZE;
	struct node *node;
	struct prop *prop;
	UINT32 n = 0;

	for (node = db_nodes; node; node = node->next) {
		size += NODE_HDR_SIZE + node->path_size;
		for (prop = node->props; prop; prop = prop->next)
			size += 4 + prop->key_size + 4 + prop->value_size;
		n++;
	}
	if (node_count)
		*node_count = n;
	return size;
}

static void db_serialize(UINT8 *buf)
{
	UINT32 node_count, prop_count;
	UINTN off = BUF_HDR_SIZE, node_off;
	struct node *node;
	struct prop *prop;

	put_le32(buf, db_buffer_size(&node_count));
	put_le32(buf + 4, APPLE_PROPS_BUF_VERSION);
	put_le32(buf + 8, node_count);
	for (node = db_nodes; node; node = node->next) {
		node_off = off;
		off += NODE_HDR_SIZE;
		CopyMem(buf + off, node->path, node->path_size);
		off += node->path_size;
		prop_count = 0;
		for (prop = node->props; prop; prop = prop->next) {
			put_le32(buf + off, 4 + prop->key_size);
			CopyMem(buf + off + 4, prop->key, prop->key_size);
			off += 4 + prop->key_size;
			put_le32(buf + off, 4 + prop->value_size);
			if (prop->value_size)
				CopyMem(buf + off + 4, prop->value, prop->value_size);
			off += 4 + prop->value_size;
			prop_count++;
		}
		put_le32(buf + node_off, off - node_off);
		put_le32(buf + node_off + 4, prop_count);
	}
}

/**
 * db_load() - fill the database from a v1 buffer, checking every length
 * @buf: the blob
 * @size: bytes in @buf
 * @why: set to a reason on failure
 *
 * Return: EFI_SUCCESS, or an error with nothing kept.
 */
static EFI_STATUS db_load(const UINT8 *buf, UINTN size, const CHAR16 **why)
{
	UINTN off = BUF_HDR_SIZE, end, node_end, path_size, klen, vlen;
	UINT32 i, count;
	struct node *node;
	EFI_STATUS status;

	if (size < BUF_HDR_SIZE) {
		*why = L"shorter than its header";
		return EFI_INVALID_PARAMETER;
	}
	end = get_le32(buf);
	if (end != size) {
		*why = L"header length differs from the file size";
		return EFI_INVALID_PARAMETER;
	}
	if (get_le32(buf + 4) != APPLE_PROPS_BUF_VERSION) {
		*why = L"buffer version is not 1";
		return EFI_UNSUPPORTED;
	}

	while (off < end) {
		if (end - off < NODE_HDR_SIZE) {
			*why = L"truncated node header";
			goto err;
		}
		node_end = get_le32(buf + off);
		count = get_le32(buf + off + 4);
		if (node_end < NODE_HDR_SIZE || node_end > end - off) {
			*why = L"node length out of bounds";
			goto err;
		}
		node_end += off;
		off += NODE_HDR_SIZE;
		path_size = dp_size(buf + off, node_end - off);
		if (!path_size) {
			*why = L"device path without End-Entire";
			goto err;
		}
		if (db_find_node((EFI_DEVICE_PATH *)(buf + off), NULL)) {
			*why = L"device path listed twice";
			goto err;
		}
		node = db_add_node(buf + off, path_size);
		if (!node) {
			*why = L"out of memory";
			goto err;
		}
		off += path_size;
		for (i = 0; i < count; i++) {
			if (node_end - off < 4)
				goto err_prop;
			klen = get_le32(buf + off);
			if (klen < 4 + 2 * sizeof(CHAR16) || klen > node_end - off || klen % 2 ||
			    buf[off + klen - 1] || buf[off + klen - 2])
				goto err_prop;
			if (node_end - off - klen < 4)
				goto err_prop;
			vlen = get_le32(buf + off + klen);
			if (vlen < 4 || vlen > node_end - off - klen)
				goto err_prop;
			/* Keys must be the NUL-terminated string their length says. */
			if (key_bytes((CHAR16 *)(buf + off + 4)) != klen - 4)
				goto err_prop;
			status = db_set(node, (CHAR16 *)(buf + off + 4), klen - 4,
					buf + off + klen + 4, vlen - 4);
			if (EFI_ERROR(status)) {
				*why = L"out of memory";
				goto err;
			}
			off += klen + vlen;
		}
		if (off != node_end) {
			*why = L"property count does not fill the node";
			goto err;
		}
	}
	return EFI_SUCCESS;

err_prop:
	*why = L"property length out of bounds or key not NUL-terminated";
err:
	db_free();
	return EFI_INVALID_PARAMETER;
}

/* --- the protocol -------------------------------------------------------- */

static EFI_STATUS EFIAPI apple_props_get(struct apple_props_protocol *this,
					 EFI_DEVICE_PATH *path, CHAR16 *name,
					 VOID *value, UINTN *size)
{
	struct node *node;
	struct prop *prop;

	(void)this;
	if (!path || !name || !size)
		return EFI_INVALID_PARAMETER;
	node = db_find_node(path, NULL);
	prop = node ? db_find_prop(node, name, NULL) : NULL;
	if (!prop)
		return EFI_NOT_FOUND;
	if (!value || *size < prop->value_size) {
		*size = prop->value_size;
		return EFI_BUFFER_TOO_SMALL;
	}
	if (prop->value_size)
		CopyMem(value, prop->value, prop->value_size);
	*size = prop->value_size;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI apple_props_set(struct apple_props_protocol *this,
					 EFI_DEVICE_PATH *path, CHAR16 *name,
					 VOID *value, UINTN size)
{
	UINTN path_size;
	struct node *node;
	EFI_STATUS status;
	BOOLEAN added = FALSE;

	(void)this;
	if (!path || !name || !name[0] || (size && !value))
		return EFI_INVALID_PARAMETER;
	path_size = dp_size((const UINT8 *)path, PROPS_MAX_SIZE);
	if (!path_size)
		return EFI_INVALID_PARAMETER;
	node = db_find_node(path, NULL);
	if (!node) {
		node = db_add_node(path, path_size);
		if (!node)
			return EFI_OUT_OF_RESOURCES;
		added = TRUE;
	}
	status = db_set(node, name, key_bytes(name), value, size);
	if (EFI_ERROR(status) && added) {
		struct node **pp;

		db_find_node(path, &pp);
		*pp = node->next;
		db_free_node(node);
	}
	return status;
}

static EFI_STATUS EFIAPI apple_props_del(struct apple_props_protocol *this,
					 EFI_DEVICE_PATH *path, CHAR16 *name)
{
	struct node *node, **node_link;
	struct prop *prop, **prop_link;

	(void)this;
	if (!path || !name)
		return EFI_INVALID_PARAMETER;
	node = db_find_node(path, &node_link);
	prop = node ? db_find_prop(node, name, &prop_link) : NULL;
	if (!prop)
		return EFI_NOT_FOUND;
	*prop_link = prop->next;
	db_free_prop(prop);
	/* A node without properties leaves the database. */
	if (!node->props) {
		*node_link = node->next;
		db_free_node(node);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI apple_props_get_all(struct apple_props_protocol *this,
					     VOID *buffer, UINTN *size)
{
	UINTN need;

	(void)this;
	if (!size)
		return EFI_INVALID_PARAMETER;
	need = db_buffer_size(NULL);
	if (!buffer || *size < need) {
		*size = need;
		return EFI_BUFFER_TOO_SMALL;
	}
	db_serialize(buffer);
	*size = need;
	return EFI_SUCCESS;
}

static struct apple_props_protocol apple_props = {
	.revision = APPLE_PROPS_REVISION,
	.get = apple_props_get,
	.set = apple_props_set,
	.del = apple_props_del,
	.get_all = apple_props_get_all,
};

/* --- self-test of the protocol ------------------------------------------ */

/*
 * The kernel only calls get_all. selftest() drives get, set and del through
 * the installed interface as a firmware client would, on a scratch node,
 * and checks that get_all then returns the served blob unchanged. The
 * verdict reaches the guest on the kernel command line (apple_fw.selftest=).
 */

/* PciRoot(0x0)/Pci(0x1f,0x7): a path no profile's blob uses. */
static const UINT8 selftest_path[] = {
	0x02, 0x01, 0x0c, 0x00, 0xd0, 0x41, 0x03, 0x0a, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x01, 0x06, 0x00, 0x07, 0x1f,
	0x7f, 0xff, 0x04, 0x00,
};

static CHAR16 selftest_key[] = L"macsupport-selftest";
static CHAR16 selftest_missing[] = L"macsupport-missing";

static const CHAR16 *selftest_step(struct apple_props_protocol *p, const UINT8 *blob,
				   UINTN blob_size)
{
	EFI_DEVICE_PATH *path = (EFI_DEVICE_PATH *)selftest_path;
	UINT8 val[4] = { 0xa5, 0x5a, 0x00, 0xff }, got[8];
	EFI_DEVICE_PATH *first_path;
	struct prop *first;
	const CHAR16 *why = NULL;
	UINTN size;
	UINT8 *buf;

	size = 0;
	if (p->get_all(p, NULL, &size) != EFI_BUFFER_TOO_SMALL || size != blob_size)
		return L"get_all-size";
	buf = AllocatePool(blob_size);
	if (!buf)
		return L"out-of-memory";
	size = blob_size - 1;
	if (p->get_all(p, buf, &size) != EFI_BUFFER_TOO_SMALL || size != blob_size) {
		why = L"get_all-small";
		goto out;
	}

	/* get on the blob's first property: size query, then the value */
	first_path = db_nodes->path;
	first = db_nodes->props;
	if (first) {
		size = 0;
		if (p->get(p, first_path, first->key, NULL, &size) != EFI_BUFFER_TOO_SMALL ||
		    size != first->value_size) {
			why = L"get-size";
			goto out;
		}
		if (p->get(p, first_path, first->key, buf, &size) != EFI_SUCCESS ||
		    size != first->value_size ||
		    (size && CompareMem(buf, first->value, size))) {
			why = L"get-value";
			goto out;
		}
	}
	size = sizeof(got);
	if (p->get(p, first_path, selftest_missing, got, &size) != EFI_NOT_FOUND) {
		why = L"get-missing";
		goto out;
	}

	/* set a new node, replace its value, read it back, delete it */
	if (p->set(p, path, selftest_key, val, sizeof(val)) != EFI_SUCCESS ||
	    p->set(p, path, selftest_key, val + 1, 2) != EFI_SUCCESS) {
		why = L"set";
		goto out;
	}
	size = sizeof(got);
	if (p->get(p, path, selftest_key, got, &size) != EFI_SUCCESS || size != 2 ||
	    got[0] != val[1] || got[1] != val[2]) {
		why = L"set-get";
		goto out;
	}
	size = 0;
	if (p->get_all(p, NULL, &size) != EFI_BUFFER_TOO_SMALL ||
	    size != blob_size + NODE_HDR_SIZE + sizeof(selftest_path) + 4 +
		    sizeof(selftest_key) + 4 + 2) {
		why = L"set-get_all-size";
		goto out;
	}
	if (p->del(p, path, selftest_key) != EFI_SUCCESS) {
		why = L"del";
		goto out;
	}
	if (p->del(p, path, selftest_key) != EFI_NOT_FOUND) {
		why = L"del-twice";
		goto out;
	}
	size = sizeof(got);
	if (p->get(p, path, selftest_key, got, &size) != EFI_NOT_FOUND) {
		why = L"del-get";
		goto out;
	}

	/* the database is the served blob again, byte for byte */
	size = blob_size;
	if (p->get_all(p, buf, &size) != EFI_SUCCESS || size != blob_size ||
	    CompareMem(buf, (VOID *)blob, blob_size))
		why = L"get_all-roundtrip";
out:
	FreePool(buf);
	return why;
}

static const CHAR16 *selftest_result = L"none";

static void selftest(struct apple_props_protocol *p, const UINT8 *blob, UINTN blob_size)
{
	const CHAR16 *why = selftest_step(p, blob, blob_size);

	if (why) {
		selftest_result = why;
		Print(L"apple-fw: protocol self-test FAILED at %s\n", why);
	} else {
		selftest_result = L"ok";
		Print(L"apple-fw: protocol self-test passed (get, set, del, get_all)\n");
	}
}

/* --- files on the boot volume ------------------------------------------- */

/**
 * read_file() - read a whole file from the volume
 * @root: the volume's root directory
 * @name: path on the volume
 * @max: largest size accepted
 * @data: set to a pool allocation holding the file plus two NUL bytes
 * @size: set to the file's size
 */
static EFI_STATUS read_file(EFI_FILE_HANDLE root, CHAR16 *name, UINTN max,
			    UINT8 **data, UINTN *size)
{
	EFI_FILE_HANDLE fh;
	EFI_FILE_INFO *info;
	EFI_STATUS status;
	UINTN len;
	UINT8 *buf;

	status = uefi_call_wrapper(root->Open, 5, root, &fh, name, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(status))
		return status;
	info = LibFileInfo(fh);
	if (!info) {
		status = EFI_DEVICE_ERROR;
		goto out_close;
	}
	len = info->FileSize;
	FreePool(info);
	if (len > max) {
		status = EFI_BAD_BUFFER_SIZE;
		goto out_close;
	}
	buf = AllocateZeroPool(len + 2);
	if (!buf) {
		status = EFI_OUT_OF_RESOURCES;
		goto out_close;
	}
	*size = len;
	status = uefi_call_wrapper(fh->Read, 3, fh, size, buf);
	if (EFI_ERROR(status) || *size != len) {
		FreePool(buf);
		status = EFI_ERROR(status) ? status : EFI_END_OF_FILE;
		goto out_close;
	}
	*data = buf;
out_close:
	uefi_call_wrapper(fh->Close, 1, fh);
	return status;
}

static void install_properties(EFI_FILE_HANDLE root)
{
	const CHAR16 *why = L"";
	struct apple_props_protocol *p;
	EFI_HANDLE handle = NULL;
	EFI_STATUS status;
	UINT8 *blob;
	UINTN size, nodes = 0;
	struct node *node;

	status = read_file(root, PROPS_FILE, PROPS_MAX_SIZE, &blob, &size);
	if (status == EFI_NOT_FOUND) {
		Print(L"apple-fw: no %s on the volume: no device-properties protocol installed\n",
		      PROPS_FILE);
		return;
	}
	if (EFI_ERROR(status)) {
		Print(L"apple-fw: cannot read %s: %r: no device-properties protocol installed\n",
		      PROPS_FILE, status);
		return;
	}
	status = db_load(blob, size, &why);
	if (EFI_ERROR(status)) {
		Print(L"apple-fw: %s is malformed (%s): no device-properties protocol installed\n",
		      PROPS_FILE, why);
		goto out;
	}
	for (node = db_nodes; node; node = node->next)
		nodes++;

	status = uefi_call_wrapper(BS->InstallProtocolInterface, 4, &handle, &apple_props_guid,
				   EFI_NATIVE_INTERFACE, &apple_props);
	if (EFI_ERROR(status)) {
		Print(L"apple-fw: cannot install the device-properties protocol: %r\n", status);
		db_free();
		goto out;
	}
	Print(L"apple-fw: device-properties protocol installed: %d bytes, %d device nodes\n",
	      (INT32)size, (INT32)nodes);

	/* Through the interface as installed, as the kernel will find it. */
	status = uefi_call_wrapper(BS->LocateProtocol, 3, &apple_props_guid, NULL, (VOID **)&p);
	if (EFI_ERROR(status) || p != &apple_props) {
		Print(L"apple-fw: LocateProtocol does not find the interface: %r\n", status);
		selftest_result = L"locate";
	} else if (nodes) {
		selftest(p, blob, size);
	}
out:
	FreePool(blob);
}

/* --- device properties in NVRAM ------------------------------------------- */

/* name = "AAPL,PathProperties" and @index as four upper-case hex digits */
static void nvram_var_name(CHAR16 *name, UINTN index)
{
	static const CHAR16 hex[] = L"0123456789ABCDEF";
	UINTN n = StrLen(NVRAM_VAR_PREFIX), i;

	StrCpy(name, NVRAM_VAR_PREFIX);
	for (i = 0; i < 4; i++)
		name[n + i] = hex[(index >> (4 * (3 - i))) & 0xf];
	name[n + 4] = 0;
}

/* Delete AAPL,PathProperties0000..00FF; returns how many existed. */
static UINTN nvram_delete_all(void)
{
	CHAR16 name[sizeof(NVRAM_VAR_PREFIX) / sizeof(CHAR16) + 4];
	EFI_STATUS status;
	UINTN i, deleted = 0;

	for (i = 0; i < NVRAM_MAX_VARS; i++) {
		nvram_var_name(name, i);
		status = uefi_call_wrapper(RT->SetVariable, 5, name, &apple_nvram_guid, 0, 0,
					   NULL);
		if (status == EFI_SUCCESS)
			deleted++;
		else if (status != EFI_NOT_FOUND)
			Print(L"apple-fw: cannot delete %s: %r\n", name, status);
	}
	return deleted;
}

/**
 * nvram_properties() - persist \nvram-props.bin as AAPL,PathProperties%04X
 * @root: the boot volume's root directory
 *
 * Stale variables go first, whether or not the file exists, so that the
 * variables hold exactly the file's blob afterwards (or nothing).
 */
static void nvram_properties(EFI_FILE_HANDLE root)
{
	CHAR16 name[sizeof(NVRAM_VAR_PREFIX) / sizeof(CHAR16) + 4];
	UINTN size, off, chunk, vars = 0, deleted;
	EFI_STATUS status;
	UINT8 *blob;

	deleted = nvram_delete_all();
	if (deleted)
		Print(L"apple-fw: deleted %d stale AAPL,PathProperties variables\n",
		      (INT32)deleted);

	status = read_file(root, NVRAM_FILE, NVRAM_MAX_SIZE, &blob, &size);
	if (status == EFI_NOT_FOUND) {
		Print(L"apple-fw: no %s on the volume: no AAPL,PathProperties variables\n",
		      NVRAM_FILE);
		return;
	}
	if (EFI_ERROR(status)) {
		Print(L"apple-fw: cannot read %s: %r: no AAPL,PathProperties variables\n",
		      NVRAM_FILE, status);
		return;
	}
	if (size < BUF_HDR_SIZE || get_le32(blob) != size ||
	    get_le32(blob + 4) != APPLE_PROPS_BUF_VERSION) {
		Print(L"apple-fw: %s is malformed (header): no AAPL,PathProperties variables\n",
		      NVRAM_FILE);
		goto out;
	}

	for (off = 0; off < size; off += chunk, vars++) {
		chunk = size - off < NVRAM_CHUNK_SIZE ? size - off : NVRAM_CHUNK_SIZE;
		nvram_var_name(name, vars);
		status = uefi_call_wrapper(RT->SetVariable, 5, name, &apple_nvram_guid,
					   NVRAM_ATTRS, chunk, blob + off);
		if (EFI_ERROR(status)) {
			Print(L"apple-fw: cannot write %s: %r: deleting the partial copy\n",
			      name, status);
			nvram_delete_all();
			goto out;
		}
	}
	Print(L"apple-fw: NVRAM AAPL,PathProperties: %d bytes in %d variables\n",
	      (INT32)size, (INT32)vars);
out:
	FreePool(blob);
}

static void set_vendor_apple(void)
{
	static const CHAR16 apple[] = L"Apple";
	CHAR16 *vendor;
	UINT32 crc = 0;
	EFI_STATUS status;

	/* Runtime memory: the kernel reads the string after ExitBootServices. */
	status = uefi_call_wrapper(BS->AllocatePool, 3, EfiRuntimeServicesData, sizeof(apple),
				   (VOID **)&vendor);
	if (EFI_ERROR(status)) {
		Print(L"apple-fw: cannot allocate the vendor string: %r\n", status);
		return;
	}
	CopyMem(vendor, (VOID *)apple, sizeof(apple));
	ST->FirmwareVendor = vendor;
	ST->Hdr.CRC32 = 0;
	status = uefi_call_wrapper(BS->CalculateCrc32, 3, ST, ST->Hdr.HeaderSize, &crc);
	if (EFI_ERROR(status))
		Print(L"apple-fw: CalculateCrc32 failed: %r\n", status);
	ST->Hdr.CRC32 = crc;
	Print(L"apple-fw: firmware vendor is now \"%s\"\n", ST->FirmwareVendor);
}

/*
 * "initrd=\initrd.img ", \cmdline.txt up to its first line end, then
 * " apple_fw.selftest=<result>" (a dotted word: the kernel ignores it).
 */
static CHAR16 *build_load_options(EFI_FILE_HANDLE root, UINTN *bytes)
{
	static const CHAR16 suffix[] = L" apple_fw.selftest=";
	UINTN size = 0, i, n, prefix = StrLen(INITRD_OPTION);
	UINTN tail = StrLen((CHAR16 *)suffix) + StrLen((CHAR16 *)selftest_result);
	UINT8 *text = NULL;
	CHAR16 *opts;
	EFI_STATUS status;

	status = read_file(root, CMDLINE_FILE, CMDLINE_MAX_SIZE, &text, &size);
	if (EFI_ERROR(status)) {
		Print(L"apple-fw: cannot read %s: %r: booting with the initrd only\n",
		      CMDLINE_FILE, status);
		size = 0;
	}
	opts = AllocateZeroPool((prefix + size + tail + 1) * sizeof(CHAR16));
	if (!opts)
		goto out;
	StrCpy(opts, INITRD_OPTION);
	n = prefix;
	for (i = 0; i < size && text[i] != '\n' && text[i] != '\r' && text[i]; i++)
		opts[n++] = text[i];
	opts[n] = 0;
	StrCat(opts, (CHAR16 *)suffix);
	StrCat(opts, (CHAR16 *)selftest_result);
	n = StrLen(opts);
	*bytes = (n + 1) * sizeof(CHAR16);
out:
	if (text)
		FreePool(text);
	return opts;
}

static EFI_STATUS boot_kernel(EFI_HANDLE image, EFI_HANDLE device, EFI_FILE_HANDLE root)
{
	EFI_LOADED_IMAGE *kernel_image;
	EFI_DEVICE_PATH *path;
	EFI_HANDLE kernel;
	EFI_STATUS status;
	CHAR16 *opts;
	UINTN opts_size = 0;

	opts = build_load_options(root, &opts_size);
	if (!opts)
		return EFI_OUT_OF_RESOURCES;
	/* apple_fw.set_os=...: the set-os app starts the kernel (set-os-fake.c). */
	if (setos_fake_wanted(opts)) {
		status = setos_fake_boot(image, device, opts, opts_size);
		Print(L"apple-fw: the set-os hand-over returned: %r: starting %s itself\n",
		      status, KERNEL_FILE);
		setos_fake_fallback();
	}
	path = FileDevicePath(device, KERNEL_FILE);
	if (!path)
		return EFI_OUT_OF_RESOURCES;
	status = uefi_call_wrapper(BS->LoadImage, 6, FALSE, image, path, NULL, 0, &kernel);
	FreePool(path);
	if (EFI_ERROR(status)) {
		Print(L"apple-fw: cannot load %s: %r\n", KERNEL_FILE, status);
		return status;
	}
	status = uefi_call_wrapper(BS->HandleProtocol, 3, kernel, &LoadedImageProtocol,
				   (VOID **)&kernel_image);
	if (EFI_ERROR(status)) {
		Print(L"apple-fw: kernel image has no loaded-image protocol: %r\n", status);
		return status;
	}
	kernel_image->LoadOptions = opts;
	kernel_image->LoadOptionsSize = opts_size;
	Print(L"apple-fw: starting %s %s\n", KERNEL_FILE, opts);
	status = uefi_call_wrapper(BS->StartImage, 3, kernel, NULL, NULL);
	Print(L"apple-fw: %s returned: %r\n", KERNEL_FILE, status);
	return status;
}

/* gnu-efi's crt0 calls efi_main with the System V convention: no EFIAPI here. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *self;
	EFI_FILE_HANDLE root;
	EFI_STATUS status;

	InitializeLib(image, systab);
	Print(L"apple-fw: TEST ONLY fake Apple firmware (macsupport QEMU harness)\n");

	status = uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol,
				   (VOID **)&self);
	if (EFI_ERROR(status)) {
		Print(L"apple-fw: no loaded-image protocol: %r\n", status);
		return status;
	}
	root = LibOpenRoot(self->DeviceHandle);
	if (!root) {
		Print(L"apple-fw: cannot open the boot volume\n");
		return EFI_NOT_FOUND;
	}

	install_properties(root);
	nvram_properties(root);
	set_vendor_apple();
	status = boot_kernel(image, self->DeviceHandle, root);
	uefi_call_wrapper(root->Close, 1, root);
	return status;
}
