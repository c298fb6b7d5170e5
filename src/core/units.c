/* units.c - exact parsing of numbers and times, and times for people. */
#include "profview/core.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

bool pv_parse_int64(const char *s, size_t len, int64_t *out)
{
    size_t i = 0;
    bool negative = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) {
        negative = s[i] == '-';
        i++;
    }
    if (i == len)
        return false;
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t v = 0;
    for (; i < len; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9)
            return false;
        if (v > (limit - d) / 10)
            return false;
        v = v * 10 + d;
    }
    if (negative)
        *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    else
        *out = (int64_t)v;
    return true;
}

bool pv_parse_hex64(const char *s, size_t len, uint64_t *out)
{
    size_t i = 0;
    if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        i = 2;
    if (i == len || len - i > 16)
        return false;
    uint64_t v = 0;
    for (; i < len; i++) {
        char c = s[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return false;
        v = (v << 4) | d;
    }
    *out = v;
    return true;
}

static const struct {
    const char *name;
    int64_t ns;
} pv_time_units[] = {
    {"ns", 1}, {"us", PV_NS_PER_US}, {"ms", PV_NS_PER_MS}, {"s", PV_NS_PER_S},
};

bool pv_parse_time(const char *s, int64_t *ns)
{
    size_t len = strlen(s);
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    int64_t scale = 1;
    for (size_t u = 0; u < PV_ARRAY_LEN(pv_time_units); u++) {
        size_t ul = strlen(pv_time_units[u].name);
        if (len > ul && strncasecmp(s + len - ul, pv_time_units[u].name, ul) == 0) {
            /* "ms" also ends in "s": take the longest unit that fits. */
            if (ul == 1 && len > 1 && (s[len - 2] == 'm' || s[len - 2] == 'u' || s[len - 2] == 'n' ||
                                       s[len - 2] == 'M' || s[len - 2] == 'U' || s[len - 2] == 'N'))
                continue;
            scale = pv_time_units[u].ns;
            len -= ul;
            break;
        }
    }
    while (len && s[len - 1] == ' ')
        len--;
    size_t i = 0;
    bool negative = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) {
        negative = s[i] == '-';
        i++;
    }
    /* Integer part and fraction, exactly: value = int * scale + frac * scale / 10^k. */
    uint64_t whole = 0;
    size_t digits = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
        if (whole > (UINT64_MAX - 9) / 10)
            return false;
        whole = whole * 10 + (uint64_t)(s[i] - '0');
    }
    uint64_t frac_ns = 0;
    if (i < len && s[i] == '.') {
        i++;
        int64_t step = scale;
        uint64_t acc = 0; /* fraction in units of scale/10^k */
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
            step /= 10;
            if (step == 0) {
                if (s[i] != '0')
                    return false; /* finer than a nanosecond */
                continue;
            }
            acc += (uint64_t)(s[i] - '0') * (uint64_t)step;
        }
        frac_ns = acc;
    }
    if (i != len || digits == 0)
        return false;
    if (whole > (uint64_t)INT64_MAX / (uint64_t)scale)
        return false;
    uint64_t total = whole * (uint64_t)scale + frac_ns;
    if (total > (uint64_t)INT64_MAX)
        return false;
    *ns = negative ? -(int64_t)total : (int64_t)total;
    return true;
}

bool pv_time_unit_parse(const char *s, pv_time_unit *unit)
{
    static const char *const names[] = {"auto", "ns", "us", "ms", "s"};
    for (size_t i = 0; i < PV_ARRAY_LEN(names); i++)
        if (strcasecmp(s, names[i]) == 0) {
            *unit = (pv_time_unit)i;
            return true;
        }
    return false;
}

void pv_format_time_human(int64_t ns, pv_time_unit unit, char *out, size_t out_size)
{
    uint64_t mag = ns < 0 ? (uint64_t)(-(ns + 1)) + 1 : (uint64_t)ns;
    const char *sign = ns < 0 ? "-" : "";
    if (unit == PV_UNIT_AUTO) {
        if (mag < 1000)
            unit = PV_UNIT_NS;
        else if (mag < 1000000)
            unit = PV_UNIT_US;
        else if (mag < 1000000000)
            unit = PV_UNIT_MS;
        else
            unit = PV_UNIT_S;
    }
    if (ns == 0) {
        snprintf(out, out_size, "0");
        return;
    }
    switch (unit) {
    case PV_UNIT_NS:
    case PV_UNIT_AUTO:
        snprintf(out, out_size, "%s%" PRIu64 " ns", sign, mag);
        break;
    case PV_UNIT_US:
        snprintf(out, out_size, "%s%" PRIu64 ".%03" PRIu64 " us", sign, mag / 1000, mag % 1000);
        break;
    case PV_UNIT_MS:
        snprintf(out, out_size, "%s%" PRIu64 ".%03" PRIu64 " ms", sign, mag / 1000000,
                 (mag / 1000) % 1000);
        break;
    case PV_UNIT_S:
        snprintf(out, out_size, "%s%" PRIu64 ".%03" PRIu64 " s", sign, mag / 1000000000,
                 (mag / 1000000) % 1000);
        break;
    }
}

pv_time_unit pv_time_unit_for(int64_t ns)
{
    uint64_t mag = ns < 0 ? (uint64_t)(-(ns + 1)) + 1 : (uint64_t)ns;
    return mag < 1000 ? PV_UNIT_NS : mag < 1000000 ? PV_UNIT_US : mag < 1000000000 ? PV_UNIT_MS
                                                                                  : PV_UNIT_S;
}

/* Appends the decimal digits of v grouped by three from the right. */
static size_t pv_put_grouped(char *out, uint64_t v)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0)
            out[k++] = ' ';
        out[k++] = digits[i];
    }
    return k;
}

void pv_format_time_precise(int64_t ns, pv_time_unit unit, int decimals, char *out,
                            size_t out_size)
{
    static const uint64_t per[] = {1, 1, 1000, 1000000, 1000000000}; /* by pv_time_unit */
    static const int most[] = {0, 0, 3, 6, 9};
    static const char *const name[] = {"ns", "ns", "us", "ms", "s"};
    if (unit == PV_UNIT_AUTO)
        unit = pv_time_unit_for(ns);
    if (decimals > most[unit])
        decimals = most[unit];
    if (decimals < 0)
        decimals = 0;
    uint64_t mag = ns < 0 ? (uint64_t)(-(ns + 1)) + 1 : (uint64_t)ns;
    char buf[96];
    size_t k = 0;
    if (ns < 0)
        buf[k++] = '-';
    k += pv_put_grouped(buf + k, mag / per[unit]);
    if (decimals) {
        uint64_t frac = mag % per[unit];
        for (int d = most[unit]; d > decimals; d--)
            frac /= 10;
        char digits[16];
        for (int i = decimals - 1; i >= 0; i--) {
            digits[i] = (char)('0' + frac % 10);
            frac /= 10;
        }
        buf[k++] = '.';
        for (int i = 0; i < decimals; i++) {
            if (i && i % 3 == 0)
                buf[k++] = ' ';
            buf[k++] = digits[i];
        }
    }
    buf[k] = '\0';
    snprintf(out, out_size, "%s %s", buf, name[unit]);
}

void pv_format_time_exact(int64_t ns, pv_time_unit unit, char *out, size_t out_size)
{
    static const uint64_t per[] = {1, 1, 1000, 1000000, 1000000000}; /* by pv_time_unit */
    if (unit == PV_UNIT_AUTO)
        unit = pv_time_unit_for(ns);
    uint64_t mag = ns < 0 ? (uint64_t)(-(ns + 1)) + 1 : (uint64_t)ns;
    int decimals = 3;
    uint64_t cut = per[unit] / 1000; /* what 3 decimals leave out */
    while (cut > 1 && mag % cut) {
        decimals += 3;
        cut /= 1000;
    }
    pv_format_time_precise(ns, unit, decimals, out, out_size);
}
