/* replay.c - runs a fuzz target's LLVMFuzzerTestOneInput on saved inputs,
 * without libFuzzer: the regression inputs of tests/fuzz/regress/NAME/ (each
 * one crashed the target once) are replayed by the suite in the normal and
 * the sanitizer builds (tests/fuzz/README.md).
 *   replay_NAME FILE|DIR...   exit 0 when every input ran */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        perror(path);
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, fp)) > 0) {
        len += n;
        if (len == cap) {
            unsigned char *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    fclose(fp);
    if (!buf)
        return 1;
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    printf("replayed %s (%zu bytes)\n", path, len);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int bad = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad |= replay_file(argv[i]);
            count++;
            continue;
        }
        DIR *dir = opendir(argv[i]);
        if (!dir) {
            perror(argv[i]);
            return 1;
        }
        char **names = NULL;
        size_t n = 0;
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char **more = realloc(names, (n + 1) * sizeof *names);
            if (!more)
                return 1;
            names = more;
            size_t l = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[n] = malloc(l);
            if (!names[n])
                return 1;
            snprintf(names[n++], l, "%s/%s", argv[i], e->d_name);
        }
        closedir(dir);
        qsort(names, n, sizeof *names, by_name);
        for (size_t k = 0; k < n; k++) {
            bad |= replay_file(names[k]);
            count++;
            free(names[k]);
        }
        free(names);
    }
    if (count == 0) {
        fprintf(stderr, "replay: no input\n");
        return 1;
    }
    return bad;
}
