/* replay.c - runs a fuzz target (linked with it) over files and directories
 * of inputs, without libFuzzer: the regression inputs of
 * tests/fuzz/regress/TARGET (each one a crash a fuzzer found once) and
 * the samples, in the normal and the sanitizer test builds (CMakeLists.txt:
 * the fuzz_replay_* tests).  Exit status 0 when every input ran; a crash is
 * the test's failure. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path, size_t *count)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "replay: %s: cannot open\n", path);
        return 1;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(fp);
                return 1;
            }
            data = grown;
        }
        size_t n = fread(data + size, 1, cap - size, fp);
        size += n;
        if (n == 0)
            break;
    }
    fclose(fp);
    /* an exact-size copy, so that a read past the end is caught */
    uint8_t *exact = malloc(size ? size : 1);
    if (!exact) {
        free(data);
        return 1;
    }
    if (size)
        memcpy(exact, data, size);
    free(data);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    (*count)++;
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_path(const char *path, size_t *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s: not found\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path, count);
    DIR *dir = opendir(path);
    if (!dir)
        return 1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown)
                break;
            names = grown;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n])
            break;
        snprintf(names[n++], len, "%s/%s", path, e->d_name);
    }
    closedir(dir);
    if (n > 1)
        qsort(names, n, sizeof *names, compare_names);
    int status = 0;
    for (size_t i = 0; i < n; i++) {
        status |= replay_path(names[i], count);
        free(names[i]);
    }
    free(names);
    return status;
}

int main(int argc, char **argv)
{
    size_t count = 0;
    int status = 0;
    for (int i = 1; i < argc; i++)
        status |= replay_path(argv[i], &count);
    printf("replayed %zu inputs\n", count);
    return status;
}
