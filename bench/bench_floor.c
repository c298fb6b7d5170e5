/*
 * bench_floor.c - the machine's own floor for indexing a BIN timeline
 * (bench/README.md "The floor"): one pass over the 24-byte records, entries
 * paired with exits on a stack per context, nothing kept.  bench/run.sh
 * times it alternately with `profview info --no-cache` on the same file and
 * reports profview's time as a ratio to it (docs/quality.md), so that the
 * bar travels between machines: what a bare pass costs here is measured
 * here, in the same run.
 *
 *   bench_floor FILE.BIN [--v10] [--context-area HEX]
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
    uint32_t depth;
} floor_stack;

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
    bool v10 = false;
    uint32_t area = 0x20000000u;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--v10") == 0)
            v10 = true;
        else if (strcmp(argv[i], "--context-area") == 0 && i + 1 < argc)
            area = (uint32_t)strtoul(argv[++i], NULL, 16);
        else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else {
            fprintf(stderr, "usage: bench_floor FILE.BIN [--v10] [--context-area HEX]\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: bench_floor FILE.BIN [--v10] [--context-area HEX]\n");
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
    floor_stack *running = &stacks[0];
    uint64_t calls = 0, unmatched = 0;
    int64_t total = 0;
    for (size_t i = 0; i < records; i++) {
        const unsigned char *r = base + i * 24;
        uint32_t handle = floor_le32(r);
        uint32_t flags = floor_le32(r + 4);
        unsigned type = v10 ? (flags >> 24) & 0xF : flags & 0xF;
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
            if (running->depth < FLOOR_DEPTH)
                running->entry[running->depth] = time;
            else
                unmatched++;
            running->depth++;
        } else if (type == 0) {
            if (running->depth == 0) {
                unmatched++;
                continue;
            }
            running->depth--;
            if (running->depth < FLOOR_DEPTH) {
                total += time - running->entry[running->depth];
                calls++;
            }
        }
    }
    uint64_t open_frames = 0;
    for (size_t c = 0; c < FLOOR_CONTEXTS; c++)
        open_frames += stacks[c].depth < FLOOR_DEPTH ? stacks[c].depth : FLOOR_DEPTH;
    printf("calls %" PRIu64 " total_ns %" PRId64 " open %" PRIu64 " unmatched %" PRIu64 "\n",
           calls, total, open_frames, unmatched);
    free(stacks);
    if (base)
        munmap((void *)base, records * 24);
    return 0;
}
