// SPDX-License-Identifier: GPL-2.0
/*
 * macsupport_test_acpi - TEST ONLY: evaluate ACPI objects on request
 *
 * Debian's kernel has no ACPI_CUSTOM_METHOD or ACPI_DEBUGGER, so a guest
 * test cannot run an SSDT method by itself. Writing an absolute ACPI path
 * (e.g. "\_GPE._L16", which Notify()s the gmux as the real GPE would) to
 * /sys/kernel/debug/macsupport_test_acpi/eval evaluates it; the path may be
 * followed by up to four integer arguments (decimal or 0x hex, separated by
 * spaces), e.g. "\_SB.PCI0.S30.UPSB.DSB0.NHI0.ZSET 3 1", passed as ACPI
 * integers; without arguments the object is evaluated with none. Reading
 * the file returns "ok <integer>", "ok" for a non-integer result, or
 * "error <ACPI status>" ("error bad arguments" for an unparsable line).
 * The file "string" does the same for a method or object whose value is a
 * String (the profiles' firmware-call trace, \ZTRS): reading it returns
 * the string itself, up to TEST_ACPI_STRING_MAX bytes, or "error ..." on
 * its first line (not a string, too long, or the evaluation failed).
 * The read-only file "trace" takes the firmware-call trace: opening it
 * evaluates \ZTRT (the trace so far, and a new one from there), reading
 * it returns the result as "string" does. Being read-only, it stays open
 * to the guest after a test has locked the kernel down, which refuses the
 * writable debugfs files (LOCKDOWN_DEBUGFS).
 * Never installed by DKMS, never loaded outside QEMU.
 */

#include <linux/acpi.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

static struct dentry *test_acpi_dir;
static DEFINE_MUTEX(test_acpi_lock);
static char test_acpi_result[64] = "none\n";

#define TEST_ACPI_MAX_ARGS 4
/* the longest String "string" returns (a trace taken between two marks) */
#define TEST_ACPI_STRING_MAX	(256 * 1024)

static char *test_acpi_string;	/* NUL-terminated, under test_acpi_lock */

/* Splits "PATH [INT ...]" in place; returns the argument count or -EINVAL. */
static int test_acpi_parse(char *line, char **path, union acpi_object *args)
{
	char *tok;
	int n = 0;

	*path = strsep(&line, " \t");
	if (!**path)
		return -EINVAL;
	while ((tok = strsep(&line, " \t"))) {
		u64 val;

		if (!*tok)
			continue;
		if (n == TEST_ACPI_MAX_ARGS || kstrtou64(tok, 0, &val))
			return -EINVAL;
		args[n].type = ACPI_TYPE_INTEGER;
		args[n].integer.value = val;
		n++;
	}
	return n;
}

/*
 * Evaluate "PATH [INT ...]" from user space into @out (the caller frees
 * out->pointer), the result's status in @status. Return: 0, -EFAULT, or
 * -EINVAL for a line that does not parse; *@path points into @line.
 */
static int test_acpi_eval_line(const char __user *ubuf, size_t count, char *line, size_t size,
			       char **path, struct acpi_buffer *out, acpi_status *status)
{
	union acpi_object args[TEST_ACPI_MAX_ARGS];
	struct acpi_object_list arg_list = { 0, args };
	size_t len = min(count, size - 1);
	int nargs;

	if (copy_from_user(line, ubuf, len))
		return -EFAULT;
	line[len] = '\0';
	nargs = test_acpi_parse(strim(line), path, args);
	if (nargs < 0)
		return -EINVAL;
	arg_list.count = nargs;
	*status = acpi_evaluate_object(NULL, *path, nargs ? &arg_list : NULL, out);
	return 0;
}

/* A String result, or "error ...", into @buf (TEST_ACPI_STRING_MAX bytes). */
static void test_acpi_string_result(char *buf, acpi_status status, union acpi_object *obj)
{
	if (ACPI_FAILURE(status))
		snprintf(buf, TEST_ACPI_STRING_MAX, "error %s\n", acpi_format_exception(status));
	else if (!obj || obj->type != ACPI_TYPE_STRING)
		snprintf(buf, TEST_ACPI_STRING_MAX, "error not a string\n");
	else if (obj->string.length >= TEST_ACPI_STRING_MAX)
		snprintf(buf, TEST_ACPI_STRING_MAX, "error %u bytes, longer than %d\n",
			 obj->string.length, TEST_ACPI_STRING_MAX - 1);
	else
		strscpy(buf, obj->string.pointer, TEST_ACPI_STRING_MAX);
}

static ssize_t test_acpi_string_write(struct file *file, const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct acpi_buffer out = { ACPI_ALLOCATE_BUFFER, NULL };
	char line[256], *path = line;
	acpi_status status = AE_OK;
	int ret;

	mutex_lock(&test_acpi_lock);
	ret = test_acpi_eval_line(ubuf, count, line, sizeof(line), &path, &out, &status);
	if (ret)
		snprintf(test_acpi_string, TEST_ACPI_STRING_MAX, "error bad arguments\n");
	else
		test_acpi_string_result(test_acpi_string, status, out.pointer);
	mutex_unlock(&test_acpi_lock);
	kfree(out.pointer);
	return ret ?: count;
}

static ssize_t test_acpi_string_read(struct file *file, char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&test_acpi_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, test_acpi_string,
				      strlen(test_acpi_string));
	mutex_unlock(&test_acpi_lock);
	return ret;
}

static const struct file_operations test_acpi_string_fops = {
	.owner	= THIS_MODULE,
	.read	= test_acpi_string_read,
	.write	= test_acpi_string_write,
	.llseek	= default_llseek,
};

/* "trace": the trace taken at open, for this file descriptor's reads */
static int test_acpi_trace_open(struct inode *inode, struct file *file)
{
	struct acpi_buffer out = { ACPI_ALLOCATE_BUFFER, NULL };
	acpi_status status;
	char *buf;

	buf = kvzalloc(TEST_ACPI_STRING_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&test_acpi_lock);
	status = acpi_evaluate_object(NULL, "\\ZTRT", NULL, &out);
	test_acpi_string_result(buf, status, out.pointer);
	mutex_unlock(&test_acpi_lock);
	kfree(out.pointer);
	file->private_data = buf;
	return 0;
}

static ssize_t test_acpi_trace_read(struct file *file, char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	const char *buf = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, buf, strlen(buf));
}

static int test_acpi_trace_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

static const struct file_operations test_acpi_trace_fops = {
	.owner		= THIS_MODULE,
	.open		= test_acpi_trace_open,
	.read		= test_acpi_trace_read,
	.release	= test_acpi_trace_release,
	.llseek		= default_llseek,
};

static ssize_t test_acpi_eval_write(struct file *file, const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	struct acpi_buffer out = { ACPI_ALLOCATE_BUFFER, NULL };
	union acpi_object *obj;
	char line[256], *path = line;
	acpi_status status = AE_OK;
	int ret;

	mutex_lock(&test_acpi_lock);
	ret = test_acpi_eval_line(ubuf, count, line, sizeof(line), &path, &out, &status);
	obj = out.pointer;
	if (ret)
		strscpy(test_acpi_result, "error bad arguments\n", sizeof(test_acpi_result));
	else if (ACPI_FAILURE(status))
		snprintf(test_acpi_result, sizeof(test_acpi_result), "error %s\n",
			 acpi_format_exception(status));
	else if (obj && obj->type == ACPI_TYPE_INTEGER)
		snprintf(test_acpi_result, sizeof(test_acpi_result), "ok %llu\n",
			 obj->integer.value);
	else
		snprintf(test_acpi_result, sizeof(test_acpi_result), "ok\n");
	mutex_unlock(&test_acpi_lock);
	kfree(out.pointer);
	pr_info("macsupport_test_acpi: %s: %s", path, test_acpi_result);
	return ret ?: count;
}

static ssize_t test_acpi_eval_read(struct file *file, char __user *ubuf, size_t count,
				   loff_t *ppos)
{
	char buf[sizeof(test_acpi_result)];

	mutex_lock(&test_acpi_lock);
	strscpy(buf, test_acpi_result, sizeof(buf));
	mutex_unlock(&test_acpi_lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, strlen(buf));
}

static const struct file_operations test_acpi_eval_fops = {
	.owner	= THIS_MODULE,
	.read	= test_acpi_eval_read,
	.write	= test_acpi_eval_write,
	.llseek	= default_llseek,
};

static int __init macsupport_test_acpi_init(void)
{
	test_acpi_string = kvzalloc(TEST_ACPI_STRING_MAX, GFP_KERNEL);
	if (!test_acpi_string)
		return -ENOMEM;
	strscpy(test_acpi_string, "error nothing evaluated yet\n", TEST_ACPI_STRING_MAX);
	test_acpi_dir = debugfs_create_dir("macsupport_test_acpi", NULL);
	debugfs_create_file("eval", 0600, test_acpi_dir, NULL, &test_acpi_eval_fops);
	debugfs_create_file("string", 0600, test_acpi_dir, NULL, &test_acpi_string_fops);
	debugfs_create_file("trace", 0400, test_acpi_dir, NULL, &test_acpi_trace_fops);
	return 0;
}
module_init(macsupport_test_acpi_init);

static void __exit macsupport_test_acpi_exit(void)
{
	debugfs_remove_recursive(test_acpi_dir);
	kvfree(test_acpi_string);
}
module_exit(macsupport_test_acpi_exit);

MODULE_DESCRIPTION("TEST ONLY: evaluate ACPI objects for the QEMU harness");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
