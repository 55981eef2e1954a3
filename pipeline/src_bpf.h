/*
 * src_bpf.h - inside the BPF source (src_bpf.c): the kernel's split of the waits read into
 * what the blame sink's stand-in holds (src_bpf_blame.c).
 */
#ifndef LOCUS_SRC_BPF_H
#define LOCUS_SRC_BPF_H

#include "../analyzers/blame.h"
#include "../analyzers/blame_live.h"
#include "../collectors/bpf_sched.h"
#include "../model/sched_results.h"

/*
 * The split of the waits (--sections blame) into r, whose cpu and culprits it allocates
 * (the caller frees them); sched: the session's results, for the idle CPUs passed over
 * beside the split. 0, or -1 when the collector did not split them.
 */
int bpf_src_blame(struct bpf_sched *bs, const struct sched_results *sched, struct blame_results *r);
/*
 * The same split as it stands (a live view: locus top's antagonists pane, at each refresh)
 * into dst, whose table it reuses; done: the one read at the end, copied instead (NULL:
 * the maps read now). 0, or -1 when the collector does not split the waits.
 */
int bpf_src_blame_live(struct bpf_sched *bs, const struct blame_results *done,
		       const struct sched_results *sched, struct blame_live *dst);

#endif
