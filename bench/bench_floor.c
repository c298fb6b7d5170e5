/*
 * bench_floor.c - the machine's own floor for indexing a BIN timeline
 * (bench/README.md "The floor"): one pass over the 24-byte records, entries
 * paired with exits on a stack per context, nothing kept.  bench/run.sh
 * times it alternately with `profview info --no-cache` on the same file and
 * reports profview's time as a ratio to it (docs/quality.md), so that the
 * bar travels between machines: what a bare pass costs here is measured
 * here, in the same run.
 *
 *   bench_floor FILE.BIN [--v10] [--context-area HEX] [--keep]
 *
 * The record layout is docs/winidea-input.md's: handle (32 bits), flags
 * (v1.1: event type in bits 0-3; v1.0: bits 24-27), data (64 bits), time
 * (64 bits), little-endian.  Event types: X 0, S 1, R 2, E 3, W 4.  The
 * running context is the value last written to the context area (W on its
 * handle; default 0x20000000, the generator's OS_RunningTask); function and
 * line areas are the handles below 0x20000000.  An E pushes its time on the
 * running context's stack, an X pops one and adds the call's gross time; S
 * and R change nothing (they suspend and resume the same frame).  A pass
 * that does less than this would not be a fair floor for profview, which
 * does all of it and keeps the index; one that does more (names, statistics,
 * the call tree) would be part of what is measured.
 *
 * Output: `calls N total_ns T open O unmatched U` on stdout: the calls closed,
 * their total gross time, the frames still open at the end, the exits with
 * no entry (and entries past the depth limit).  The program prints
 * its results so that the compiler cannot drop the pass.
 *
 * `--keep`: the same pass, keeping what an index of profview's shape keeps
 * (bench/README.md "The floor that keeps the index"): per event a 2-byte
 * area (the handle's low bits), a context byte and a depth byte; per call
 * its entry, exit and parent (4 bytes each) and its gross time (8 bytes),
 * in fresh memory as profview's are.  No names, no statistics, no call tree
 * order.  It prints `kept K check C` first: the calls it kept (the closed
 * and the open ones) and a sum over the kept bytes, so that no write is
 * dropped.  It measures what writing the index costs on this machine (the
 * kernel's fresh pages included) beside the bare pass.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define FLOOR_CONTEXTS 256 /* context values beyond this share the last stack */
#define FLOOR_DEPTH 4096   /* deeper frames are counted as unmatched */

typedef struct floor_stack {
    int64_t entry[FLOOR_DEPTH];
    uint32_t call[FLOOR_DEPTH]; /* --keep: the kept call of each open frame */
    uint32_t depth;
} floor_stack;

#define FLOOR_NO_CALL UINT32_MAX

/* --keep: the index's columns (fresh memory: malloc of the whole size) */
typedef struct floor_kept {
    uint16_t *area;
    uint8_t *context, *depth;
    uint32_t *entry, *exit, *parent;
    int64_t *gross;
    size_t calls, cap;
} floor_kept;

static bool floor_keep_alloc(floor_kept *k, size_t records)
{
    k->cap = records / 2 + 16; /* profview's first guess: a call per two events */
    k->area = malloc((records + 1) * sizeof *k->area);
    k->context = malloc(records + 1);
    k->depth = malloc(records + 1);
    k->entry = malloc(k->cap * sizeof *k->entry);
    k->exit = malloc(k->cap * sizeof *k->exit);
    k->parent = malloc(k->cap * sizeof *k->parent);
    k->gross = malloc(k->cap * sizeof *k->gross);
    return k->area && k->context && k->depth && k->entry && k->exit && k->parent && k->gross;
}

static uint64_t floor_keep_check(const floor_kept *k, size_t records)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < records; i += 4093)
        sum += k->area[i] + k->context[i] + k->depth[i];
    for (size_t q = 0; q < k->calls; q += 4093)
        sum += k->entry[q] + k->exit[q] + k->parent[q] + (uint64_t)k->gross[q];
    return sum;
}

static uint32_t floor_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t floor_le64(const unsigned char *p)
{
    return (uint64_t)floor_le32(p) | (uint64_t)floor_le32(p + 4) << 32;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    bool v10 = false, keep = false;
    uint32_t area = 0x20000000u;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--v10") == 0)
            v10 = true;
        else if (strcmp(argv[i], "--keep") == 0)
            keep = true;
        else if (strcmp(argv[i], "--context-area") == 0 && i + 1 < argc)
            area = (uint32_t)strtoul(argv[++i], NULL, 16);
        else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else {
            fprintf(stderr, "usage: bench_floor FILE.BIN [--v10] [--context-area HEX] [--keep]\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: bench_floor FILE.BIN [--v10] [--context-area HEX] [--keep]\n");
        return 2;
    }
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "bench_floor: %s: %s\n", path, strerror(errno));
        return 2;
    }
    size_t records = (size_t)st.st_size / 24;
    const unsigned char *base = NULL;
    if (records > 0) {
        void *m = mmap(NULL, records * 24, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            fprintf(stderr, "bench_floor: %s: %s\n", path, strerror(errno));
            return 2;
        }
        madvise(m, records * 24, MADV_SEQUENTIAL);
        base = m;
    }
    close(fd);

    floor_stack *stacks = calloc(FLOOR_CONTEXTS, sizeof *stacks);
    if (!stacks) {
        fprintf(stderr, "bench_floor: out of memory\n");
        return 2;
    }
    floor_kept kept = {0};
    if (keep && !floor_keep_alloc(&kept, records)) {
        fprintf(stderr, "bench_floor: out of memory\n");
        return 2;
    }
    floor_stack *running = &stacks[0];
    uint64_t calls = 0, unmatched = 0;
    int64_t total = 0;
    for (size_t i = 0; i < records; i++) {
        const unsigned char *r = base + i * 24;
        uint32_t handle = floor_le32(r);
        uint32_t flags = floor_le32(r + 4);
        unsigned type = v10 ? (flags >> 24) & 0xF : flags & 0xF;
        if (keep) {
            kept.area[i] = (uint16_t)handle;
            kept.context[i] = (uint8_t)(running - stacks);
            kept.depth[i] = (uint8_t)running->depth;
        }
        if (handle == area) {
            if (type == 4) {
                uint64_t c = floor_le64(r + 8);
                running = &stacks[c < FLOOR_CONTEXTS ? c : FLOOR_CONTEXTS - 1];
            }
            continue;
        }
        if (handle >= 0x20000000u)
            continue;
        int64_t time = (int64_t)floor_le64(r + 16);
        if (type == 3) {
            if (running->depth < FLOOR_DEPTH) {
                running->entry[running->depth] = time;
                if (keep) {
                    if (kept.calls == kept.cap) { /* grows as profview's do */
                        kept.cap *= 2;
                        kept.entry = realloc(kept.entry, kept.cap * sizeof *kept.entry);
                        kept.exit = realloc(kept.exit, kept.cap * sizeof *kept.exit);
                        kept.parent = realloc(kept.parent, kept.cap * sizeof *kept.parent);
                        kept.gross = realloc(kept.gross, kept.cap * sizeof *kept.gross);
                        if (!kept.entry || !kept.exit || !kept.parent || !kept.gross) {
                            fprintf(stderr, "bench_floor: out of memory\n");
                            return 2;
                        }
                    }
                    size_t q = kept.calls++;
                    kept.entry[q] = (uint32_t)i;
                    kept.exit[q] = FLOOR_NO_CALL;
                    kept.parent[q] =
                        running->depth ? running->call[running->depth - 1] : FLOOR_NO_CALL;
                    kept.gross[q] = 0;
                    running->call[running->depth] = (uint32_t)q;
                }
            } else {
                unmatched++;
            }
            running->depth++;
        } else if (type == 0) {
            if (running->depth == 0) {
                unmatched++;
                continue;
            }
            running->depth--;
            if (running->depth < FLOOR_DEPTH) {
                int64_t gross = time - running->entry[running->depth];
                total += gross;
                calls++;
                if (keep) {
                    uint32_t q = running->call[running->depth];
                    kept.exit[q] = (uint32_t)i;
                    kept.gross[q] = gross;
                }
            }
        }
    }
    uint64_t open_frames = 0;
    for (size_t c = 0; c < FLOOR_CONTEXTS; c++)
        open_frames += stacks[c].depth < FLOOR_DEPTH ? stacks[c].depth : FLOOR_DEPTH;
    if (keep)
        printf("kept %zu check %" PRIu64 " ", kept.calls, floor_keep_check(&kept, records));
    printf("calls %" PRIu64 " total_ns %" PRId64 " open %" PRIu64 " unmatched %" PRIu64 "\n",
           calls, total, open_frames, unmatched);
    free(stacks);
    free(kept.area);
    free(kept.context);
    free(kept.depth);
    free(kept.entry);
    free(kept.exit);
    free(kept.parent);
    free(kept.gross);
    if (base)
        munmap((void *)base, records * 24);
    return 0;
}
