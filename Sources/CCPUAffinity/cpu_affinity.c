#define _GNU_SOURCE
#include "cpu_affinity.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>

int mc_allowed_cpu_count(void) {
    // Machines with more CPUs than a cpu_set_t holds need a larger mask: grow it until the
    // kernel accepts it.
    for (int cpus = CPU_SETSIZE; cpus <= (1 << 16); cpus *= 2) {
        size_t size = CPU_ALLOC_SIZE(cpus);
        cpu_set_t *set = CPU_ALLOC(cpus);
        if (set == NULL) return 0;
        CPU_ZERO_S(size, set);
        if (sched_getaffinity(0, size, set) == 0) {
            int count = CPU_COUNT_S(size, set);
            CPU_FREE(set);
            return count;
        }
        CPU_FREE(set);
        if (errno != EINVAL) return 0;
    }
    return 0;
}
