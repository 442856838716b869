// The CPUs the process may run on (cpu_affinity.c).
#ifndef MAPCOMPOSE_CPU_AFFINITY_H
#define MAPCOMPOSE_CPU_AFFINITY_H

#ifdef __cplusplus
extern "C" {
#endif

/// How many CPUs the calling thread's affinity mask allows (`taskset`, a container's cpuset);
/// 0 when the mask cannot be read.
int mc_allowed_cpu_count(void);

#ifdef __cplusplus
}
#endif

#endif
