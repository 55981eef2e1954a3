/* probe.c - capability probes of the running machine, shared by doctor and the collectors. */
#define _GNU_SOURCE
#include "probe.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "../common/util.h"
#include "pmu_event.h"

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif

bool probe_pmu_exists(const char *root, const char *pmu)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/%s", root, pmu);
	return stat(path, &st) == 0;
}

bool probe_core_pmu(const char *root, char *name, size_t len)
{
	static const char *const pmus[] = {
		"cpu", "cpu_core", "armv8_pmuv3", "armv8_pmuv3_0", "armv8_cortex_a53",
		"armv8_cortex_a72", "armv8_neoverse_n1", "armv8_neoverse_v1", "power_pmu",
	};

	for (size_t i = 0; i < ARRAY_SIZE(pmus); i++) {
		if (probe_pmu_exists(root, pmus[i])) {
			snprintf(name, len, "%s", pmus[i]);
			return true;
		}
	}
	return false;
}

int probe_paranoid(void)
{
	char buf[32];
	long v;

	if (read_text_file("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)) < 0 ||
	    parse_long(buf, -10, 10, &v) < 0)
		return 99;
	return (int)v;
}

/* capget without libcap: effective set, words 0 and 1. */
bool probe_perf_privileged(void)
{
	struct {
		unsigned int version;
		int pid;
	} hdr = { 0x20080522, 0 };
	struct {
		unsigned int effective, permitted, inheritable;
	} data[2];

	memset(data, 0, sizeof(data));
	if (syscall(__NR_capget, &hdr, data) < 0)
		return geteuid() == 0;
	/* CAP_SYS_ADMIN = 21, CAP_PERFMON = 38 */
	return (data[0].effective & (1u << 21)) || (data[1].effective & (1u << (38 - 32)));
}

static bool is_tracefs(const char *dir)
{
	struct statfs sf;
	char path[256];
	struct stat st;

	if (statfs(dir, &sf) < 0)
		return false;
	if ((unsigned long)sf.f_type == TRACEFS_MAGIC)
		return true;
	/* debugfs/tracing on older kernels auto-mounts tracefs below it */
	snprintf(path, sizeof(path), "%s/events", dir);
	return stat(path, &st) == 0;
}

const char *probe_tracefs(char *why, size_t len)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (is_tracefs(dirs[i]))
			return dirs[i];
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0 &&
	    is_tracefs("/sys/kernel/tracing"))
		return "/sys/kernel/tracing";
	if (errno == EPERM || errno == EACCES)
		snprintf(why, len, "tracefs is not mounted and mounting it needs root "
			 "(mount -t tracefs nodev /sys/kernel/tracing)");
	else
		snprintf(why, len, "tracefs is not available: %s (kernel without "
			 "CONFIG_TRACING?)", strerror(errno));
	return NULL;
}

const char *probe_no_pmu_reason(void)
{
	return "no hardware PMU: the kernel exports no cpu PMU (virtual machine?)";
}

void probe_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[256], vendor[64] = "", name[128] = "";
	long family = -1, model = -1;

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		v += 2;
		v[strcspn(v, "\n")] = '\0';
		if (!strncmp(line, "vendor_id", 9) && !vendor[0])
			snprintf(vendor, sizeof(vendor), "%s", v);
		else if (!strncmp(line, "cpu family", 10) && family < 0)
			parse_long(v, 0, 1 << 20, &family);
		else if (!strncmp(line, "model\t", 6) && model < 0)
			parse_long(v, 0, 1 << 20, &model);
		else if (!strncmp(line, "model name", 10) && !name[0])
			snprintf(name, sizeof(name), "%s", v);
		else if (line[0] == '\n')
			break;
	}
	fclose(f);
	if (family >= 0)
		snprintf(buf, len, "%s (%s family %ld model %ld)", name, vendor, family, model);
	else
		snprintf(buf, len, "%s", name);
}

int probe_open(struct perf_event_attr *attr, int pid, int cpu)
{
	int fd;

	attr->size = sizeof(*attr);
	attr->disabled = 1;
	fd = (int)syscall(__NR_perf_event_open, attr, pid, cpu, -1, 0);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

bool probe_memory_sampling(char *buf, size_t len)
{
	struct mem_plan plan;

	if (mem_plan_build(NULL, &plan, buf, len) == 0) {
		snprintf(buf, len, "%s", plan.what);
		return true;
	}
	if (probe_pmu_exists("", "arm_spe_0")) {
		snprintf(buf, len, "Arm SPE (peer hits instead of HITM; locus does not open it yet)");
		return true;
	}
	return false; /* buf holds mem_plan_build's reason */
}
